// swift-tools-version: 6.2
// The Bloc workspace: a BLoC state library for Swift on Linux, three feature
// modules, and a daemon (`stated`) with its CLI (`statectl`).
//
// Dependencies point one way: Apps → StateServer, Wire → features → FeatureKit → BlocCore,
// WireJSON. A feature knows nothing of sockets or framing: FeatureKit depends on WireJSON (the
// JSON values, cursor and writer) only; Wire (framing, messages, the client) builds on WireJSON
// and re-exports it. Both are Foundation-free.
import PackageDescription

/// Release builds of the libraries optimise across module boundaries: a generic of BlocCore is
/// specialised in the module that uses it (a feature's bloc in the daemon, a user's in their
/// app) without `@inlinable` or `@usableFromInline` on its internals.
let crossModule: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

let package = Package(
  name: "bloc-workspace",
  platforms: [.macOS(.v15)],
  products: [
    // The state library. Its module is `BlocCore`, so that the `Bloc` class
    // never collides with a module of the same name (`import BlocCore`).
    .library(name: "Bloc", targets: ["BlocCore"]),
    .library(name: "BlocTest", targets: ["BlocTest"]),
    // The journal storage: every change of many blocs in one append-only file, group commit.
    .library(name: "BlocJournal", targets: ["BlocJournal"]),
    .executable(name: "stated", targets: ["stated"]),
    .executable(name: "statectl", targets: ["statectl"]),
  ],
  targets: [
    // The package's one EINTR retry, one write-all loop and one decimal writer (`package`
    // access: not API).
    .target(name: "SystemCalls", path: "Modules/SystemCalls"),
    .target(name: "BlocCore", dependencies: ["SystemCalls"], path: "Modules/Bloc"),
    .target(name: "BlocTest", dependencies: ["BlocCore"], path: "Modules/BlocTest"),
    // A storage engine behind BlocCore's `BlocStorage`: an app that persists to files does not
    // carry it; the daemon does.
    .target(
      name: "BlocJournal",
      dependencies: ["BlocCore", "SystemCalls", "JournalChecksum", "JournalLinks"],
      path: "Modules/Journal"),
    // The journal's CRC-32 folded with PCLMULQDQ: C (Swift cannot reach the instruction), in
    // a header only, compiled into BlocJournal.
    .systemLibrary(name: "JournalChecksum", path: "Modules/JournalChecksum"),
    // The journal file's link count, asked without its timestamps (statx, which Swift's Glibc
    // does not declare): C in a header only, compiled into BlocJournal.
    .systemLibrary(name: "JournalLinks", path: "Modules/JournalLinks"),

    // How a feature declares its events and state once (JSON, validation, `describe`); its
    // events are read straight from a request's bytes with WireJSON's cursor.
    .target(
      name: "FeatureKit", dependencies: ["BlocCore", "WireJSON"], path: "Modules/FeatureKit"),
    // Features: each depends on BlocCore and FeatureKit only, never on another feature.
    .target(name: "Settings", dependencies: ["BlocCore", "FeatureKit"], path: "Modules/Settings"),
    .target(name: "Counter", dependencies: ["BlocCore", "FeatureKit"], path: "Modules/Counter"),
    .target(
      name: "AppSearch", dependencies: ["BlocCore", "FeatureKit"], path: "Modules/AppSearch"),
    // new-feature: feature targets go above this line.

    // Foundation-free, so `statectl` links them statically and starts fast. WireJSON is the JSON
    // alone (values, parser, cursor, writer), what features may see; Wire adds framing,
    // messages and the socket client, and re-exports WireJSON (`import Wire` gives both).
    .target(name: "WireJSON", dependencies: ["SystemCalls"], path: "Modules/WireJSON"),
    .target(name: "Wire", dependencies: ["WireJSON", "SystemCalls"], path: "Modules/Wire"),
    .target(
      name: "StateServer",
      dependencies: ["Wire", "BlocCore", "BlocJournal", "FeatureKit", "SystemCalls"],
      path: "Modules/StateServer"),

    // The features the daemon serves, composed in one place (Apps/stated/Features/Features.swift
    // registers them); a library so the fuzz target of event decoding serves the same ones.
    .target(
      name: "StatedFeatures",
      dependencies: [
        "StateServer", "BlocCore", "FeatureKit",
        "Counter", "Settings", "AppSearch",
        // new-feature: daemon dependencies go above this line.
      ],
      path: "Apps/stated/Features"),
    .executableTarget(
      name: "stated", dependencies: ["StateServer", "Wire", "BlocJournal", "StatedFeatures"],
      path: "Apps/stated", exclude: ["Features"]),
    // statectl: the command-line logic lives in StatectlCore (unit-tested by CLITests);
    // the executable is only main.swift, linked with a static Swift runtime so that a
    // whole `statectl send` process starts in about a millisecond. Only this
    // executable carries the unsafe flag; the library products stay usable as
    // dependencies.
    .target(
      name: "StatectlCore", dependencies: ["Wire", "SystemCalls"],
      path: "Apps/statectl/StatectlCore"),
    .executableTarget(
      name: "statectl", dependencies: ["StatectlCore", "Wire"], path: "Apps/statectl",
      exclude: ["StatectlCore"], sources: ["main.swift"],
      linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
    .executableTarget(name: "bloc-bench", dependencies: ["BlocCore"], path: "Scripts/BlocBench"),
    .executableTarget(
      name: "journal-bench", dependencies: ["BlocCore", "BlocJournal"],
      path: "Scripts/JournalBench"),
    .executableTarget(
      name: "catalog-bench", dependencies: ["AppSearch"], path: "Scripts/CatalogBench"),

    // libFuzzer targets (Scripts/fuzz builds them with the fuzzer and address sanitizers). In
    // an ordinary build each is a small program that replays inputs from files, so they
    // compile, and stay correct, with everything else.
    .target(name: "FuzzSupport", path: "Scripts/Fuzz/Support"),
    .executableTarget(
      name: "fuzz-json", dependencies: ["FuzzSupport", "WireJSON"], path: "Scripts/Fuzz/JSON"),
    .executableTarget(
      name: "fuzz-framer", dependencies: ["FuzzSupport", "Wire"], path: "Scripts/Fuzz/Framer"),
    // stated's own server and dispatcher in the fuzzing process, for the targets that fuzz
    // what the daemon does with a request.
    .target(
      name: "FuzzDaemon",
      dependencies: [
        "FuzzSupport", "Wire", "StateServer", "BlocCore", "AppSearch", "StatedFeatures",
        "SystemCalls",
      ],
      path: "Scripts/Fuzz/Daemon"),
    .executableTarget(
      name: "fuzz-request", dependencies: ["FuzzDaemon", "FuzzSupport", "Wire"],
      path: "Scripts/Fuzz/Request"),
    .executableTarget(
      name: "fuzz-events", dependencies: ["FuzzDaemon", "FuzzSupport", "StateServer", "Wire"],
      path: "Scripts/Fuzz/Events"),

    // What the CLI and daemon tests share to run real child processes.
    .target(name: "ProcessSupport", path: "Tests/ProcessSupport"),
    .testTarget(
      name: "BlocTests", dependencies: ["BlocCore", "BlocTest"], path: "Tests/BlocTests"),
    .testTarget(
      name: "JournalTests", dependencies: ["BlocCore", "BlocJournal"], path: "Tests/JournalTests"),
    .testTarget(
      name: "BlocTestTests", dependencies: ["BlocCore", "BlocTest"], path: "Tests/BlocTestTests"),
    .testTarget(
      name: "FeatureTests",
      dependencies: [
        "BlocCore", "BlocTest", "FeatureKit", "Counter", "Settings", "AppSearch", "StateServer",
        "StatedFeatures", "Wire",
        // new-feature: feature test dependencies go above this line.
      ],
      path: "Tests/FeatureTests"),
    .testTarget(
      name: "WireTests", dependencies: ["Wire", "SystemCalls"], path: "Tests/WireTests"),
    .testTarget(
      name: "CLITests", dependencies: ["StatectlCore", "Wire", "SystemCalls", "ProcessSupport"],
      path: "Tests/CLITests"),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "Wire", "StateServer", "BlocCore", "BlocJournal", "FeatureKit", "Counter", "Settings",
        "AppSearch", "SystemCalls", "ProcessSupport",
      ],
      path: "Tests/DaemonTests"),
  ]
)

for target in package.targets where target.type == .regular {
  target.swiftSettings = (target.swiftSettings ?? []) + crossModule
}
