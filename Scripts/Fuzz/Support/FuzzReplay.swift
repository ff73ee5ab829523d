import Foundation

/// The ordinary-build entry point of a fuzz target: runs the target's body over input files.
///
/// Under `Scripts/fuzz` the target is linked with libFuzzer, which brings its own `main` and
/// calls `LLVMFuzzerTestOneInput`; this one is renamed away there. In every other build the
/// target is this small program, so a crash found by the fuzzer can be replayed (and
/// debugged) without sanitizers:
///
/// ```sh
/// swift build --product fuzz-json
/// .build/debug/fuzz-json Scripts/Fuzz/Seeds/json crash-1f2e…   # files or directories
/// ```
public enum FuzzReplay {
  /// Runs `body` once per file named in the arguments (directories: once per file inside),
  /// then exits: 0 when every input ran, 2 for a usage error or an unreadable file.
  public static func main(name: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Never {
    exit(run(name: name, body))
  }

  private static func run(name: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Int32 {
    let paths = CommandLine.arguments.dropFirst()
    guard !paths.isEmpty, !paths.contains(where: { $0.hasPrefix("-") }) else {
      let message = """
        usage: \(name) FILE|DIRECTORY...
        Replays each input through the fuzz target. To fuzz it, run: Scripts/fuzz \(name.dropFirst("fuzz-".count))

        """
      FileHandle.standardError.write(Data(message.utf8))
      return 2
    }
    var count = 0
    for path in paths {
      for file in files(at: path) {
        guard let data = FileManager.default.contents(atPath: file) else {
          FileHandle.standardError.write(Data("\(name): cannot read \(file)\n".utf8))
          return 2
        }
        data.withUnsafeBytes { body($0) }
        count += 1
      }
    }
    print("\(name): \(count) input(s) ran without a failure")
    return 0
  }

  /// `path` itself, or the regular files directly inside it when it is a directory (sorted).
  private static func files(at path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return [path] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.sorted().map { "\(path)/\($0)" }.filter { file in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
        && !isDirectory.boolValue
    }
  }
}

/// Stops the process with `message` when `condition` is false: the fuzzer records the input
/// as a crash. (`precondition` drops its message in optimised builds.)
public func fuzzCheck(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if condition() { return }
  FileHandle.standardError.write(Data("fuzz check failed at \(file):\(line): \(message())\n".utf8))
  abort()
}
