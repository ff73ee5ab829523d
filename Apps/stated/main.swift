// stated: hosts the feature blocs and serves them over a Unix domain socket (PROTOCOL.md).
import BlocCore
import BlocJournal
import Foundation
import Glibc
import StateServer
import StatedFeatures
import Wire

let daemonVersion = "0.1.0"

/// sysexits(3) codes used by stated.
enum ExitCode {
  static let usage: Int32 = 64
  static let unavailable: Int32 = 69
  static let osError: Int32 = 71
  static let cannotCreate: Int32 = 73
}

func fail(_ code: Int32, _ message: String) -> Never {
  Logger.writeLine("stated: \(message)")
  exit(code)
}

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  fail(ExitCode.usage, "\(error.message)\nTry 'stated --help' for usage.")
}
if options.showHelp {
  print(Options.help)
  exit(0)
}
if options.showVersion {
  print("stated \(daemonVersion) (protocol \(ProtocolInfo.version))")
  exit(0)
}

let logger = Logger(label: "stated", level: options.logLevel)
// Before any bloc exists, so creation and restore problems are logged too.
BlocObservers.add(LoggingObserver(logger: logger))
let environment = ProcessInfo.processInfo.environment

// MARK: Paths

let socketPath: String
if let path = options.socketPath {
  socketPath = path
} else {
  let location = SocketLocation.default(environment: environment, uid: geteuid())
  if SocketActivation.inheritedDescriptor(environment: environment, processID: getpid()) == nil {
    do {
      try location.prepareDirectory(ownerUID: geteuid())
    } catch {
      fail(ExitCode.osError, "cannot prepare the socket directory: \(error)")
    }
  }
  socketPath = location.path
}

guard
  let requestedStateDirectory = options.stateDirectory
    ?? StateDirectory.defaultPath(environment: environment)
else {
  fail(
    ExitCode.usage,
    "no state directory: set XDG_STATE_HOME or HOME, or pass --state-dir PATH")
}

// MARK: Claiming the state directory and the socket, before any state is read or written

let stateDirectory: String
do {
  stateDirectory = try StateDirectory.prepare(requestedStateDirectory)
} catch let ServerError.unusableDirectory(path, reason) {
  fail(
    ExitCode.cannotCreate,
    "cannot use the state directory \(path): \(reason); pass --state-dir PATH to use another")
} catch {
  fail(
    ExitCode.cannotCreate, "cannot use the state directory \(requestedStateDirectory): \(error)")
}
let stateLock: StateDirectoryLock
do {
  stateLock = try StateDirectoryLock.acquire(directory: stateDirectory, socketPath: socketPath)
} catch let error as ServerError {
  if case .stateDirectoryInUse = error { fail(ExitCode.unavailable, "\(error)") }
  fail(ExitCode.osError, "cannot lock the state directory \(stateDirectory): \(error)")
} catch {
  fail(ExitCode.osError, "cannot lock the state directory \(stateDirectory): \(error)")
}

var configuration = ServerConfiguration(
  socketPath: socketPath, environment: environment, maxFrameBytes: options.maxFrameBytes)
configuration.log = { message in logger.warning(message) }
let listener: ListeningSocket
do {
  listener = try ListeningSocket.open(
    path: socketPath, environment: environment, backlog: configuration.backlog)
} catch {
  stateLock.release()
  switch error {
  case ServerError.alreadyRunning, ServerError.socketInUse:
    fail(ExitCode.unavailable, "\(error)")
  default:
    fail(ExitCode.osError, "cannot listen on \(socketPath): \(error)")
  }
}
stateLock.record(socketPath: listener.path)

/// Gives up before serving: frees the socket and the state directory for the next daemon.
func abandon(_ code: Int32, _ message: String) -> Never {
  listener.close()
  stateLock.release()
  fail(code, message)
}

// One journal for every feature: their changes share each write and sync (PROTOCOL.md,
// "Durability"). It syncs by itself within a second under --sync deferred.
let storage: JournalStorage
do {
  storage = try JournalStorage(
    directory: URL(fileURLWithPath: stateDirectory, isDirectory: true), sync: options.sync,
    limits: JournalStorage.Limits(history: options.historyLimit),
    log: { line in logger.warning("state: \(line)") })
} catch {
  abandon(ExitCode.cannotCreate, "cannot use the state directory \(stateDirectory): \(error)")
}

// MARK: Features

let registry = FeatureRegistry()
registerFeatures(in: registry, storage: storage, logger: logger)

// MARK: Serving

let dispatcher = RequestDispatcher(
  registry: registry, version: daemonVersion, maxFrameBytes: options.maxFrameBytes,
  batching: storage,
  details: DaemonDetails(
    socketPath: listener.path, stateDirectory: stateDirectory, storage: storage),
  // Hidden, for tests: STATED_STRAIGHT_THROUGH=0 queues every event, so that a test can
  // check that both routes give the same replies (ReplyFixtureTests).
  straightThrough: environment["STATED_STRAIGHT_THROUGH"] != "0",
  logger: logger)
let server = Server(
  configuration: configuration, delegate: dispatcher, drain: { await dispatcher.drain() })
// Installed before serving, so a signal sent as soon as requests are answered is not lost.
let signals = TerminationSignals { signal in
  logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); shutting down")
  server.shutdown()
}

do {
  try server.start(on: listener)
} catch {
  await registry.closeAll()
  stateLock.release()
  fail(ExitCode.osError, "cannot serve on \(socketPath): \(error)")
}

ServiceNotifier.ready()  // systemd Type=notify: serving now (no-op without NOTIFY_SOCKET)
logger.info(
  "stated \(daemonVersion) listening on \(server.socketPath ?? socketPath); "
    + "state in \(stateDirectory); features: \(registry.names.joined(separator: ", "))")
await server.waitUntilStopped()
logger.info("connections closed; storing state")
await registry.closeAll()
storage.close()
stateLock.release()
signals.cancel()
logger.info("stopped")
exit(0)
