#!/usr/bin/env python3
"""A small client for the stated daemon (wire protocol v2, see PROTOCOL.md).

Standard library only. Use it from the shell:

    stated_client.py ping
    stated_client.py send counter increment
    stated_client.py send counter set value:=5
    stated_client.py send settings set key=searchBackend value=itunes
    stated_client.py socket
    stated_client.py get counter
    stated_client.py get settings --select counterStep
    stated_client.py info
    stated_client.py -r 3 -i 0.5 send counter increment
    stated_client.py monitor --outcome failed --event set
    stated_client.py call '{"op":"get","feature":"counter"}'
    printf '%s\n' '{"op":"ping"}' '{"op":"features"}' | stated_client.py call -
    echo '{"type":"set","value":3}' | stated_client.py send counter -
    stated_client.py watch counter --count 3
    stated_client.py monitor counter settings --count 5
    stated_client.py history counter --last 20
    stated_client.py goto counter 42

or import it:

    from stated_client import Client
    with Client() as client:
        print(client.send("counter", {"type": "increment"})["state"])
        for push in client.watch("counter"):
            print(push["seq"], push["state"])
        for change in client.history("counter", last=20)["transitions"]:
            print(change["seq"], change["cause"], change["state"])
        for event in client.monitor(["counter"]):
            print(event["seq"], event.get("cause"), event["before"], "->", event["after"])

Event fields follow statectl's (and httpie's) convention: `field=text` sends the string
"text", `field:=json` sends a JSON value (5, true, null, [1,2], {"a":1}).

Exit status, the same as statectl's: 0 success, 1 the daemon refused the request, 2 bad
command line, 3 the daemon is unreachable (no socket, nobody listening, permission denied),
4 connected but no valid answer (closed, timed out, not protocol v2). Output is JSON, written
as statectl writes it in a pipe (`get` prints {"state":...,"seq":N}). When stdout is not a
terminal, or with --json, an error is one JSON object on stderr:
{"ok":false,"status":N,"error":{"code":...,"message":...}} (--human: text).
"""

import argparse
import json
import os
import socket
import sys
import time

PROTOCOL = 1

# Exit statuses, the same as statectl's (see `statectl --help`).
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_CONNECTION_FAILED = 4


class StatedError(Exception):
    """An error reply: `code` (e.g. "unknown_feature") and `message`."""

    def __init__(self, code, message, reply=None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reply = reply


def default_socket_path(environ=None):
    """The daemon's default socket: $STATED_SOCKET, else $XDG_RUNTIME_DIR/stated/stated.sock,
    else /tmp/stated-<uid>/stated.sock (the same rules as stated)."""
    environ = os.environ if environ is None else environ
    if environ.get("STATED_SOCKET"):
        return environ["STATED_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return os.path.join(runtime, "stated", "stated.sock")
    return f"/tmp/stated-{os.geteuid()}/stated.sock"


class Client:
    """One connection to stated. Requests are answered in order; pushes of watched
    features that arrive meanwhile are kept for `pushes()` / `watch()`."""

    def __init__(self, path=None, timeout=None):
        self.path = path or default_socket_path()
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(self.path)
        self.reader = self.sock.makefile("rb")
        self.pending_pushes = []
        self.next_id = 1

    def close(self):
        self.reader.close()
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read_message(self):
        line = self.reader.readline()
        if not line:
            raise ConnectionError("stated closed the connection")
        return json.loads(line)

    def request(self, op, **fields):
        """Sends one request and returns its reply (a dict). Raises StatedError when the
        reply has "ok": false (the reply stays available as `error.reply`)."""
        request_id = self.next_id
        self.next_id += 1
        message = {"id": request_id, "op": op}
        message.update(fields)
        self.sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while True:
            reply = self._read_message()
            if "push" in reply:
                self.pending_pushes.append(reply)
                continue
            if reply.get("id") != request_id:
                raise ConnectionError(f"reply out of order: {reply}")
            if not reply.get("ok"):
                error = reply.get("error", {})
                raise StatedError(error.get("code"), error.get("message"), reply)
            return reply

    def ping(self):
        return self.request("ping")

    def features(self):
        return self.request("features")["features"]

    def describe(self, feature):
        return self.request("describe", feature=feature)

    def get(self, feature, select=None):
        """The reply to get: {"state": ..., "seq": N, ...}; with `select` (a member path such
        as "counterStep"), {"select": ..., "value": ..., "seq": N} instead."""
        if select is None:
            return self.request("get", feature=feature)
        return self.request("get", feature=feature, select=select)

    def info(self):
        """The daemon's state: server, clients, stats, features, persistence."""
        return self.request("info")

    def call(self, request):
        """Sends one raw request (a dict, sent as it is: give it an "id" to have it echoed)
        and returns the reply, whether "ok" is true or false."""
        self.sock.sendall(compact(request).encode() + b"\n")
        return self._next_reply()

    def call_lines(self, lines, window=64):
        """Sends raw request lines (bytes, without newlines; blank ones are skipped, as the
        daemon ignores them) pipelined, `window` at a time, and yields each reply in order."""
        batch = []
        for line in lines:
            if line.strip(b" \t\r"):
                batch.append(line)
            if len(batch) == window:
                yield from self._pipeline(batch)
                batch = []
        yield from self._pipeline(batch)

    def _pipeline(self, batch):
        if batch:
            self.sock.sendall(b"".join(line + b"\n" for line in batch))
        for _ in batch:
            yield self._next_reply()

    def _next_reply(self):
        while True:
            message = self._read_message()
            if "push" in message:
                self.pending_pushes.append(message)
                continue
            return message

    def send(self, feature, event):
        """Sends an event (a dict with "type"); returns the reply once the outcome is known."""
        return self.request("send", feature=feature, event=event)

    def undo(self, feature):
        return self.request("undo", feature=feature)

    def redo(self, feature):
        return self.request("redo", feature=feature)

    def history(self, feature, last=None, since=None):
        """The reply to history: {"oldest": N, "seq": N, "transitions": [...]}, oldest first;
        the last `last` transitions, or those from seq `since` on (neither: the last 100)."""
        fields = {"feature": feature}
        if last is not None:
            fields["last"] = last
        if since is not None:
            fields["since"] = since
        return self.request("history", **fields)

    def goto(self, feature, seq):
        """Sets `feature` to its state right after change `seq` (a new change); returns the
        reply {"changed": ..., "state": ..., "seq": N}."""
        return self.request("goto", feature=feature, seq=seq)

    def monitor(self, features=None):
        """Monitors `features` (all when None): yields every event push, whatever made the
        change (its "cause": event, undo, redo, goto, restore, migration)."""
        fields = {} if features is None else {"features": list(features)}
        self.request("monitor", **fields)
        for push in self.pushes():
            if push.get("push") == "event" and (features is None
                                                or push.get("feature") in features):
                yield push

    def pushes(self):
        """Yields pushes forever (those that arrived during requests first)."""
        while True:
            while self.pending_pushes:
                yield self.pending_pushes.pop(0)
            message = self._read_message()
            if "push" in message:
                yield message

    def watch(self, feature):
        """Watches `feature`: yields the current state as a push-shaped dict, then every push."""
        reply = self.request("watch", feature=feature)
        yield {"push": "state", "feature": feature, "seq": reply["seq"], "state": reply["state"]}
        for push in self.pushes():
            if push.get("feature") == feature:
                yield push


def positive(text):
    """A whole number above 0."""
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got '{text}'")
    return int(text)


def sequence(text):
    """A seq: a whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a seq (a whole number, 0 or more), got '{text}'")
    return int(text)


def parse_field(argument):
    """`name=text` is the string "text"; `name:=json` is the JSON value (statectl's and
    httpie's convention). The name ends at the first "=", so text may contain "="."""
    if "=" not in argument:
        raise argparse.ArgumentTypeError(
            f"expected field=text or field:=json, got '{argument}'")
    name, text = argument.split("=", 1)
    raw = name.endswith(":")
    if raw:
        name = name[:-1]
    if not name:
        raise argparse.ArgumentTypeError(f"missing field name in '{argument}'")
    if name == "type":
        raise argparse.ArgumentTypeError(
            f"'type' is the event's name (the EVENT argument), not a field: '{argument}'")
    if not raw:
        return name, text
    try:
        return name, json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"invalid JSON in '{argument}': {error} (for text use {name}={text})") from None


def compact(value):
    """JSON as statectl and the daemon write it: one line, no spaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Failure(Exception):
    """Ends the command with `status`; `code` is the daemon's error code, or one of
    usage / unreachable / connection_failed."""

    def __init__(self, status, code, message, hint=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.hint = hint


def errors_as_json(argv):
    """Errors are JSON where output is: --json or --human (the last one given) decides, else
    whether stdout is a terminal (as statectl decides)."""
    chosen = [a for a in argv if a in ("--json", "--human")]
    if chosen:
        return chosen[-1] == "--json"
    return not sys.stdout.isatty()


def report(failure, as_json):
    if as_json:
        error = {"code": failure.code, "message": failure.message}
        if failure.hint:
            error["hint"] = failure.hint
        print(compact({"ok": False, "status": failure.status, "error": error}), file=sys.stderr)
    else:
        print(f"stated_client.py: {failure.message}", file=sys.stderr)
        if failure.hint:
            print(f"hint: {failure.hint}", file=sys.stderr)
    return failure.status


def typed_field_hint(code, message, event):
    """`value=50` sends the string "50": when a field refused as invalid holds text that is
    itself JSON other than a string, say how to send the JSON value (as statectl does)."""
    if code != "invalid_field" or not isinstance(event, dict):
        return None
    for name, value in event.items():
        if name == "type" or not isinstance(value, str) or f"'event.{name}'" not in message:
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            continue
        if not isinstance(parsed, str):
            return (f"{name}={value} sends the string \"{value}\"; to send it as JSON, "
                    f"write {name}:={value}")
    return None


class ArgumentParser(argparse.ArgumentParser):
    """Usage errors exit 2 as argparse's do, and are JSON where errors are."""

    def error(self, message):
        sys.exit(report(Failure(EXIT_USAGE, "usage", message,
                                f"Run '{self.prog} --help' for usage."),
                        errors_as_json(sys.argv[1:])))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = ArgumentParser(
        prog="stated_client.py", description="Talk to the stated daemon (protocol v2).")
    parser.add_argument("--socket", default=default_socket_path(),
                        help="socket path (default: $STATED_SOCKET, else the daemon's: "
                             "%(default)s)")
    parser.add_argument("--json", action="store_true",
                        help="errors as one JSON object on stderr (the default when stdout "
                             "is not a terminal)")
    parser.add_argument("--human", action="store_true",
                        help="errors as text even when stdout is not a terminal")
    parser.add_argument("-r", "--repeat", type=repeat_count, default=None, metavar="N",
                        help="run the command N times (-1: until interrupted), like "
                             "redis-cli -r")
    parser.add_argument("-i", "--interval", type=non_negative, default=None,
                        metavar="SECONDS",
                        help="pause between runs (alone: repeat until interrupted)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for a reply (default: 30; watch waits forever)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("ping", help="daemon and protocol version")
    commands.add_parser("features", help="the features served")
    commands.add_parser("socket", help="print the socket path that would be used")
    commands.add_parser("info", help="the daemon's state: uptime, clients, counts, journal")
    for name, text in [("describe", "events and state shape"),
                       ("undo", "undo the last change"), ("redo", "redo the last undo")]:
        commands.add_parser(name, help=text).add_argument("feature")
    get = commands.add_parser("get", help='print {"state":...,"seq":N}')
    get.add_argument("feature")
    get.add_argument("--select", metavar="PATH",
                     help='only the part of the state at PATH: {"select":...,"value":...}')
    send = commands.add_parser("send", help="send an event and print the resulting state")
    send.add_argument("feature")
    send.add_argument("type", help="the event type, e.g. increment; - reads the whole event "
                                   "as JSON from stdin")
    send.add_argument("fields", nargs="*", type=parse_field, metavar="field=text|field:=json",
                      help="event fields: field=text sends a string, field:=json a JSON value")
    call = commands.add_parser("call", help="send one raw JSON request (or - : NDJSON from "
                                            "stdin) and print the replies")
    call.add_argument("request", help="a JSON request object, or - for request lines on stdin")
    watch = commands.add_parser("watch", help="print the state, then every change (JSON lines)")
    watch.add_argument("feature")
    watch.add_argument("--count", type=int, default=0,
                       help="stop after this many states (default: never)")
    monitor = commands.add_parser(
        "monitor", help="print every event and change of some features (JSON lines)")
    monitor.add_argument("features", nargs="*", metavar="feature",
                         help="the features (default: all)")
    monitor.add_argument("--count", type=int, default=0,
                         help="stop after this many events printed (default: never)")
    monitor.add_argument("--event", action="append", default=[], metavar="TYPE",
                         help="only events of this type (repeat for several)")
    monitor.add_argument("--outcome", action="append", default=[], choices=OUTCOMES,
                         help="only events with this outcome (repeat for several)")
    history = commands.add_parser(
        "history", help="print a feature's recorded changes, oldest first (JSON lines)")
    history.add_argument("feature")
    window = history.add_mutually_exclusive_group()
    window.add_argument("--last", type=positive, help="the last N changes (default 100)")
    window.add_argument("--since", type=sequence, help="the changes from SEQ on")
    goto = commands.add_parser(
        "goto", help="set a feature to its state right after change SEQ (a new change)")
    goto.add_argument("feature")
    goto.add_argument("seq", type=sequence)
    args = parser.parse_args(argv)
    as_json = errors_as_json(argv)
    if args.command == "socket":
        print(args.socket)
        return 0
    repeating = args.repeat is not None or args.interval is not None
    if repeating and (args.command in ("watch", "monitor")
                      or (args.command == "call" and args.request == "-")):
        parser.error(f"-r and -i repeat a request; '{args.command}"
                     f"{' -' if args.command == 'call' else ''}' cannot be repeated")
    try:
        # Stdin is read once, even when the command is repeated.
        args.sent_event = read_event(args) if args.command == "send" else None
    except Failure as failure:
        return report(failure, as_json)
    runs = 1 if not repeating else (None if args.repeat in (None, -1) else args.repeat)
    status, done = 0, 0
    try:
        while runs is None or done < runs:
            if done and args.interval:
                time.sleep(args.interval)
            try:
                result = run(args)
            except Failure as failure:
                result = report(failure, as_json)
            status = result or status
            done += 1
    except KeyboardInterrupt:
        pass
    return status


OUTCOMES = ("handled", "dropped", "cancelled", "failed")


def repeat_count(text):
    """-r: a positive number of runs, or -1 for ever."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1 and number != -1:
        raise argparse.ArgumentTypeError(
            f"needs a positive whole number (or -1: until interrupted), got '{text}'")
    return number


def non_negative(text):
    """-i: seconds, 0 or more."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1
    if seconds < 0:
        raise argparse.ArgumentTypeError(f"needs a number of seconds, got '{text}'")
    return seconds


def start_hint(path):
    """How to start the daemon where this client looks."""
    if path == default_socket_path({k: v for k, v in os.environ.items()
                                    if k != "STATED_SOCKET"}):
        return "is stated running? start it with: stated"
    return f"is stated running? start it with: stated --socket {path}"


def read_event(args):
    """The event of `send`: from stdin as JSON with `-`, else TYPE and its fields."""
    if args.type != "-":
        event = {"type": args.type}
        event.update(dict(args.fields))
        return event
    if args.fields:
        raise Failure(EXIT_USAGE, "usage", "send FEATURE - takes no fields: the event comes "
                      "from stdin")
    text = sys.stdin.read()
    try:
        event = json.loads(text)
    except ValueError as error:
        raise Failure(EXIT_USAGE, "usage", f"stdin is not a JSON event: {error}") from None
    if not isinstance(event, dict):
        raise Failure(EXIT_USAGE, "usage", 'stdin must hold one JSON object, the event, '
                      'e.g. {"type":"increment"}')
    return event


def run(args):
    event = args.sent_event
    request = None
    if args.command == "call" and args.request != "-":
        try:
            request = json.loads(args.request)
        except ValueError as error:
            raise Failure(EXIT_USAGE, "usage", f"the request is not JSON: {error}") from None
        if not isinstance(request, dict):
            raise Failure(EXIT_USAGE, "usage", "the request must be a JSON object such as "
                          '{"op":"ping"}')
    try:
        streams = args.command in ("watch", "monitor")
        client = Client(args.socket, timeout=None if streams else args.timeout)
    except OSError as error:
        raise Failure(EXIT_UNREACHABLE, "unreachable",
                      f"daemon unreachable: cannot connect to {args.socket}: "
                      f"{error.strerror or error}", start_hint(args.socket)) from None
    with client:
        try:
            if args.command == "send":
                reply = client.send(args.feature, event)
                print(compact({"outcome": reply["outcome"], "state": reply["state"],
                               "seq": reply["seq"]}))
            elif args.command == "call":
                replies = ([client.call(request)] if request is not None
                           else client.call_lines(sys.stdin.buffer.read().split(b"\n")))
                refused = False
                for reply in replies:
                    print(compact(reply), flush=True)
                    refused = refused or not reply.get("ok")
                return EXIT_REFUSED if refused else 0
            elif args.command == "watch":
                for count, push in enumerate(client.watch(args.feature), start=1):
                    print(compact({"seq": push["seq"], "state": push["state"]}), flush=True)
                    if args.count and count >= args.count:
                        break
            elif args.command == "monitor":
                features = args.features or None
                events = (push for push in client.monitor(features)
                          if (not args.event or push.get("event", {}).get("type") in args.event)
                          and (not args.outcome or push.get("outcome") in args.outcome))
                for count, push in enumerate(events, start=1):
                    push.pop("push", None)
                    print(compact(push), flush=True)
                    if args.count and count >= args.count:
                        break
            elif args.command == "history":
                reply = client.history(args.feature, last=args.last, since=args.since)
                for transition in reply["transitions"]:
                    print(compact({"feature": args.feature, **transition}))
            elif args.command == "goto":
                reply = client.goto(args.feature, args.seq)
                reply.pop("id", None)
                reply.pop("ok", None)
                print(compact(reply))
            elif args.command in ("get", "info", "describe", "undo", "redo"):
                if args.command == "get":
                    reply = client.get(args.feature, args.select)
                elif args.command == "info":
                    reply = client.info()
                else:
                    reply = client.request(args.command, feature=args.feature)
                reply.pop("id", None)
                reply.pop("ok", None)
                print(compact(reply))
            elif args.command == "features":
                for feature in client.features():
                    print(f"{feature['name']}\t{feature['summary']}")
            else:
                reply = client.ping()
                print(f"stated {reply['daemon']}, protocol {reply['protocol']}")
        except StatedError as error:
            # A daemon that does not serve this user is unreachable for it, as in statectl.
            status = EXIT_UNREACHABLE if error.code == "permission_denied" else EXIT_REFUSED
            hint = typed_field_hint(error.code, error.message, event)
            raise Failure(status, error.code, f"{error.code}: {error.message}", hint) from None
        except (ConnectionError, OSError, ValueError) as error:
            raise Failure(EXIT_CONNECTION_FAILED, "connection_failed", str(error)) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
