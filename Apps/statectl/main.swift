// statectl: the command-line client of the stated daemon. See `statectl --help`.
// The logic lives in StatectlCore; this file only wires it to the process.
import Glibc
import StatectlCore

/// A watch ends cleanly (exit status 0) on Ctrl-C or SIGTERM. Output is written
/// unbuffered, so exiting from the handler loses nothing. The signals are also
/// unblocked: a parent may have started us with them blocked.
func exitOnInterrupt() {
  signal(SIGINT) { _ in _exit(0) }
  signal(SIGTERM) { _ in _exit(0) }
  var signals = sigset_t()
  sigemptyset(&signals)
  sigaddset(&signals, SIGINT)
  sigaddset(&signals, SIGTERM)
  pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}

let statectl = Statectl(
  console: StandardConsole(), willWatch: exitOnInterrupt,
  opensShell: isatty(0) == 1 && isatty(1) == 1)
exit(statectl.run(Array(CommandLine.arguments.dropFirst())).rawValue)
