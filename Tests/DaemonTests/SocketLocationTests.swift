import Glibc
import StateServer
import Testing

@Suite("Default locations")
struct SocketLocationTests {
  @Test func runtimeDirectoryIsPreferred() {
    let location = SocketLocation.default(
      environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
    #expect(location.path == "/run/user/1000/stated/stated.sock")
    #expect(location.directory == "/run/user/1000/stated")
    #expect(location.kind == .runtimeDirectory)
  }

  @Test func fallsBackToTmpPerUID() {
    for environment in [[:], ["XDG_RUNTIME_DIR": ""], ["XDG_RUNTIME_DIR": "relative/dir"]] {
      let location = SocketLocation.default(environment: environment, uid: 4242)
      #expect(location.path == "/tmp/stated-4242/stated.sock")
      #expect(location.directory == "/tmp/stated-4242")
      #expect(location.kind == .temporaryFallback)
    }
  }

  @Test func stateDirectoryPrefersXDGStateHome() {
    let path = StateDirectory.defaultPath(
      environment: ["XDG_STATE_HOME": "/s/state", "HOME": "/home/u"], accountHome: { "/pw" })
    #expect(path == "/s/state/stated")
  }

  @Test func stateDirectoryFallsBackToHomeThenPasswd() {
    #expect(
      StateDirectory.defaultPath(environment: ["HOME": "/home/u/"], accountHome: { "/pw" })
        == "/home/u/.local/state/stated")
    #expect(
      StateDirectory.defaultPath(environment: ["XDG_STATE_HOME": "rel"], accountHome: { "/pw" })
        == "/pw/.local/state/stated")
    #expect(StateDirectory.defaultPath(environment: [:], accountHome: { nil }) == nil)
  }

  @Test func accountHomeComesFromPasswd() {
    #expect(StateDirectory.accountHome()?.hasPrefix("/") == true)
  }

  @Test func prepareDirectoryCreatesMode0700() throws {
    let temporary = TemporaryDirectory()
    let location = SocketLocation(
      path: temporary.path + "/d/stated.sock", directory: temporary.path + "/d",
      kind: .temporaryFallback)
    try location.prepareDirectory(ownerUID: geteuid())
    #expect(permissions(of: location.directory) == 0o700)
    try location.prepareDirectory(ownerUID: geteuid())  // existing and fine: accepted
  }

  @Test func refusesGroupOrWorldAccessibleDirectory() throws {
    let temporary = TemporaryDirectory()
    let directory = temporary.path + "/open"
    mkdir(directory, 0o755)
    chmod(directory, 0o755)
    let location = SocketLocation(
      path: directory + "/stated.sock", directory: directory, kind: .temporaryFallback)
    let error = #expect(throws: ServerError.self) {
      try location.prepareDirectory(ownerUID: geteuid())
    }
    #expect(error?.description.contains("0755") == true)
    #expect(error?.description.contains("chmod 700") == true)
  }

  @Test func refusesDirectoryOwnedByAnotherUser() throws {
    let temporary = TemporaryDirectory()
    let directory = temporary.path + "/theirs"
    mkdir(directory, 0o700)
    let location = SocketLocation(
      path: directory + "/stated.sock", directory: directory, kind: .temporaryFallback)
    let stranger = geteuid() &+ 1
    let error = #expect(throws: ServerError.self) {
      try location.prepareDirectory(ownerUID: stranger)
    }
    #expect(error?.description.contains("owned by uid \(geteuid())") == true)
  }

  @Test func refusesSymlinkedDirectory() throws {
    let temporary = TemporaryDirectory()
    mkdir(temporary.path + "/real", 0o700)
    symlink(temporary.path + "/real", temporary.path + "/link")
    let location = SocketLocation(
      path: temporary.path + "/link/stated.sock", directory: temporary.path + "/link",
      kind: .temporaryFallback)
    let error = #expect(throws: ServerError.self) {
      try location.prepareDirectory(ownerUID: geteuid())
    }
    #expect(error?.description.contains("symbolic link") == true)
  }

  @Test func socketActivationNeedsMatchingPID() {
    let pid: Int32 = 777
    #expect(
      SocketActivation.inheritedDescriptor(
        environment: ["LISTEN_PID": "777", "LISTEN_FDS": "1"], processID: pid) == 3)
    #expect(
      SocketActivation.inheritedDescriptor(
        environment: ["LISTEN_PID": "778", "LISTEN_FDS": "1"], processID: pid) == nil)
    #expect(
      SocketActivation.inheritedDescriptor(
        environment: ["LISTEN_PID": "777", "LISTEN_FDS": "0"], processID: pid) == nil)
    #expect(SocketActivation.inheritedDescriptor(environment: [:], processID: pid) == nil)
  }
}
