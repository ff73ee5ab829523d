import Foundation
import Glibc

/// A stand-in for the iTunes Search API on 127.0.0.1 (python3's http.server), so that a search
/// through the `itunes` backend has the same answer on every machine: two fixed apps for any
/// term, and HTTP 503 for the term `fail`. Point stated at it with `STATED_ITUNES_URL`.
final class FakeITunes {
  static let script = #"""
    import http.server, json, sys, urllib.parse
    apps = [
        {"trackId": 1001, "trackName": "Atlas Maps", "version": "2.1", "primaryGenreName": "Navigation",
         "artistName": "Atlas Ltd", "description": "Maps that work offline.\nMore text.",
         "trackViewUrl": "https://apps.example/1001", "averageUserRating": 4.5},
        {"trackId": 1002, "trackName": "Tide Tables"},
    ]
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            if query.get("term", [""])[0] == "fail":
                status, body = 503, b"{}"
            else:
                status, body = 200, json.dumps({"resultCount": len(apps), "results": apps}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *arguments):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let process = Process()
  let url: String

  init() throws {
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.script]
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var line: [UInt8] = []
    while !line.contains(10) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw Failure(description: "python3 http.server did not start") }
      line += chunk
    }
    let port = String(decoding: line.prefix { $0 != 10 }, as: UTF8.self)
    url = "http://127.0.0.1:\(port)/search"
  }

  deinit {
    // SIGKILL: a test process may run its children with SIGTERM ignored.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}
