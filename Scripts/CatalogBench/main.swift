// Query latency of the offline package catalog over a synthetic 60,000-entry catalog, through
// the public async API, as the AppSearch feature uses it. Run through Scripts/bench (release).
// A benchmark, never a test. Target: p99 ≤ 1 ms.
import AppSearch
import Dispatch

/// A deterministic pseudo-random generator, so every run searches the same catalog.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

let syllables = [
  "lib", "gtk", "py", "node", "ruby", "perl", "x", "qt", "kde", "gnome", "font", "dev", "doc",
  "utils", "tools", "data", "core", "net", "ssl", "http", "xml", "json", "sql", "map", "zip",
  "img", "snd", "vid", "term", "shell", "mail", "cal", "sync", "fs", "db", "web", "cli", "gui",
]
var random = SplitMix(state: 42)
func word(_ random: inout SplitMix) -> String {
  (0..<Int.random(in: 1...3, using: &random)).map { _ in syllables.randomElement(using: &random)! }
    .joined()
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 60_000
var names = Set<String>()
var entries: [App] = []
while entries.count < count {
  let name = (0..<Int.random(in: 1...3, using: &random)).map { _ in word(&random) }.joined(
    separator: "-")
  guard names.insert(name).inserted else { continue }
  entries.append(
    App(
      id: Int64(entries.count + 1), name: name, version: "1.\(entries.count % 97)",
      genre: "utils", developer: "Debian",
      summary: "\(word(&random)) \(word(&random)) for \(word(&random))"))
}
let catalog = PackageCatalogService(entries: entries)
try await catalog.preload()

let terms =
  syllables + (0..<300).map { _ in word(&random) } + entries.prefix(200).map(\.name)
  + ["a", "e", "zz", "nothing-matches-this", "lib-gtk", "map"]
var samples: [Double] = []
for round in 0..<5 {
  for term in terms {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try await catalog.search(SearchQuery(term: term, limit: 20))
    let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    if round > 0 { samples.append(micros) }  // the first round warms caches
  }
}
samples.sort()
func percentile(_ samples: [Double], _ p: Double) -> Int {
  Int(samples[min(samples.count - 1, Int(Double(samples.count) * p))])
}
let p99 = percentile(samples, 0.99)
print("catalog search over \(count) entries, \(samples.count) queries (limit 20)")
print(
  "  p50 \(percentile(samples, 0.5)) µs   p99 \(p99) µs   max \(Int(samples.last!)) µs"
    + "   (target p99 ≤ 1000 µs: \(p99 <= 1000 ? "met" : "missed"))")
