// stated: hosts the feature blocs and serves them over a Unix domain socket (PROTOCOL.md).
import BlocCore
import Foundation
import Glibc
import StateServer
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

let logger = Logger(level: options.logLevel)
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
  let stateDirectory = options.stateDirectory
    ?? StateDirectory.defaultPath(environment: environment)
else {
  fail(
    ExitCode.usage,
    "no state directory: set XDG_STATE_HOME or HOME, or pass --state-dir PATH")
}
// One journal for every feature: their changes share each write and sync (PROTOCOL.md,
// "Durability"). It syncs by itself within a second under --sync deferred.
let storage: JournalStorage
do {
  storage = try JournalStorage(
    directory: URL(fileURLWithPath: stateDirectory, isDirectory: true), sync: options.sync,
    log: { line in logger.warning("state: \(line)") })
} catch {
  fail(ExitCode.cannotCreate, "cannot open the state directory \(stateDirectory): \(error)")
}

// MARK: Features

let registry = FeatureRegistry()
registerFeatures(in: registry, storage: storage, logger: logger)

// MARK: Serving

let dispatcher = RequestDispatcher(
  registry: registry, version: daemonVersion, maxFrameBytes: options.maxFrameBytes,
  logger: logger)
var configuration = ServerConfiguration(
  socketPath: socketPath, environment: environment, maxFrameBytes: options.maxFrameBytes)
configuration.log = { message in logger.warning(message) }
let server = Server(
  configuration: configuration, delegate: dispatcher, drain: { await dispatcher.drain() })
// Installed before the socket exists, so a signal sent as soon as it appears is not lost.
let signals = TerminationSignals { signal in
  logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); shutting down")
  server.shutdown()
}

do {
  try server.start()
} catch let error as ServerError {
  await registry.closeAll()
  switch error {
  case .alreadyRunning, .socketInUse:
    fail(ExitCode.unavailable, "\(error)")
  default:
    fail(ExitCode.osError, "cannot listen on \(socketPath): \(error)")
  }
} catch {
  await registry.closeAll()
  fail(ExitCode.osError, "cannot listen on \(socketPath): \(error)")
}

logger.info(
  "stated \(daemonVersion) listening on \(server.socketPath ?? socketPath); "
    + "state in \(stateDirectory); features: \(registry.names.joined(separator: ", "))")
await server.waitUntilStopped()
logger.info("connections closed; storing state")
await registry.closeAll()
storage.close()
signals.cancel()
logger.info("stopped")
exit(0)
