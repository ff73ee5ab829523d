import StatectlCore
import Testing

@Suite struct SocketPathTests {
  func environment(_ values: [String: String]) -> (String) -> String? {
    { values[$0] }
  }

  @Test func runtimeDirectoryDefault() {
    let path = SocketPath.resolve(
      option: nil, environment: environment(["XDG_RUNTIME_DIR": "/run/user/1000"]), uid: 1000)
    #expect(
      path == SocketPath(path: "/run/user/1000/stated/stated.sock", source: .runtimeDirectory))
    let slash = SocketPath.resolve(
      option: nil, environment: environment(["XDG_RUNTIME_DIR": "/run/user/7/"]), uid: 7)
    #expect(slash.path == "/run/user/7/stated/stated.sock")
  }

  @Test func temporaryFallbackWithoutAnAbsoluteRuntimeDirectory() {
    for values in [[:], ["XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "run/user/5"]] {
      let path = SocketPath.resolve(option: nil, environment: environment(values), uid: 5)
      #expect(path == SocketPath(path: "/tmp/stated-5/stated.sock", source: .temporaryFallback))
    }
  }

  @Test func environmentVariableThenOptionOverride() {
    let values = ["XDG_RUNTIME_DIR": "/run/user/1", "STATED_SOCKET": "/tmp/x.sock"]
    #expect(
      SocketPath.resolve(option: nil, environment: environment(values), uid: 1)
        == SocketPath(path: "/tmp/x.sock", source: .environment))
    #expect(
      SocketPath.resolve(option: "/tmp/y.sock", environment: environment(values), uid: 1)
        == SocketPath(path: "/tmp/y.sock", source: .option))
    // An empty variable is ignored.
    #expect(
      SocketPath.resolve(option: nil, environment: environment(["STATED_SOCKET": ""]), uid: 1)
        .source == .temporaryFallback)
  }
}
