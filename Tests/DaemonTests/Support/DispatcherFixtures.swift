import BlocCore
import BlocJournal
import Foundation
import StateServer
import Testing
import Wire

/// Serves `tally` (with history) and `plain` (without) in-process through the real dispatcher.
func withDispatcher(
  maxFrameBytes: Int = 1 << 20, largeFrameBytes: Int = 64 << 10,
  largeFrameQueue: DispatchQueue? = nil, monitorBacklogBytes: Int = 4 << 20,
  batching: (any WriteBatching)? = nil, straightThrough: Bool = true,
  register: (FeatureRegistry) -> Void = { registry in
    registry.register(TallyFeature.self, TallyBloc())
    registry.register(PlainFeature.self, TallyBloc(history: nil))
  },
  _ body: (String, Server, FeatureRegistry) async throws -> Void
) async throws {
  let registry = FeatureRegistry()
  register(registry)
  let dispatcher = RequestDispatcher(
    registry: registry, version: "test", maxFrameBytes: maxFrameBytes,
    largeFrameBytes: largeFrameBytes, largeFrameQueue: largeFrameQueue,
    monitorBacklogBytes: monitorBacklogBytes, batching: batching,
    straightThrough: straightThrough)
  try await withServer(
    delegate: dispatcher, configure: { $0.maxFrameBytes = maxFrameBytes },
    drain: { await dispatcher.drain() }
  ) { server, path in
    try await body(path, server, registry)
  }
  await registry.closeAll()
}

extension TestClient {
  /// Sends one request line and returns the next line, parsed.
  func call(_ line: String, timeout: Duration = .seconds(60)) async throws -> JSON {
    try write(line + "\n")
    return try await next(timeout: timeout)
  }

  /// The next line, parsed.
  func next(timeout: Duration = .seconds(60)) async throws -> JSON {
    guard let reply = try await readLine(timeout: timeout) else {
      throw Failure(description: "EOF instead of a reply")
    }
    return try JSON(parsing: reply)
  }
}

extension JSON {
  /// `self[key]` as an Int, for terse expectations.
  func int(_ key: String) -> Int? { self[key]?.intValue }
  func string(_ key: String) -> String? { self[key]?.stringValue }
  var errorCode: String? { self["error"]?["code"]?.stringValue }
  var errorMessage: String { self["error"]?["message"]?.stringValue ?? "" }
}
