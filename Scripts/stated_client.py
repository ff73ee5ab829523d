#!/usr/bin/env python3
"""A small client for the stated daemon (wire protocol v1, see PROTOCOL.md).

Standard library only. Use it from the shell:

    stated_client.py ping
    stated_client.py send counter increment
    stated_client.py send counter set value=5
    stated_client.py send settings set key=searchBackend value=itunes
    stated_client.py get counter
    stated_client.py watch counter --count 3

or import it:

    from stated_client import Client
    with Client() as client:
        print(client.send("counter", {"type": "increment"})["state"])
        for push in client.watch("counter"):
            print(push["seq"], push["state"])

Exit status: 0 success, 1 the daemon answered with an error, 2 bad command line,
69 the daemon could not be reached.
"""

import argparse
import json
import os
import socket
import sys

PROTOCOL = 1


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

    def get(self, feature):
        """The reply to get: {"state": ..., "seq": N, ...}."""
        return self.request("get", feature=feature)

    def send(self, feature, event):
        """Sends an event (a dict with "type"); returns the reply once the outcome is known."""
        return self.request("send", feature=feature, event=event)

    def undo(self, feature):
        return self.request("undo", feature=feature)

    def redo(self, feature):
        return self.request("redo", feature=feature)

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


def parse_field(assignment):
    """key=value, the value read as JSON when it parses (5, true, null, "x") else as text."""
    if "=" not in assignment:
        raise argparse.ArgumentTypeError(f"expected key=value, got '{assignment}'")
    key, text = assignment.split("=", 1)
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    return key, value


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="stated_client.py", description="Talk to the stated daemon (protocol v1).")
    parser.add_argument("--socket", help="socket path (default: %(default)s)",
                        default=default_socket_path())
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for a reply (default: 30; watch waits forever)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("ping", help="daemon and protocol version")
    commands.add_parser("features", help="the features served")
    for name, text in [("get", "print the state"), ("describe", "events and state shape"),
                       ("undo", "undo the last change"), ("redo", "redo the last undo")]:
        commands.add_parser(name, help=text).add_argument("feature")
    send = commands.add_parser("send", help="send an event and print the resulting state")
    send.add_argument("feature")
    send.add_argument("type", help="the event type, e.g. increment")
    send.add_argument("fields", nargs="*", type=parse_field, metavar="key=value",
                      help="event fields; values are JSON when they parse, else text")
    watch = commands.add_parser("watch", help="print the state, then every change (JSON lines)")
    watch.add_argument("feature")
    watch.add_argument("--count", type=int, default=0,
                       help="stop after this many states (default: never)")
    args = parser.parse_args(argv)

    try:
        client = Client(args.socket, timeout=None if args.command == "watch" else args.timeout)
    except OSError as error:
        print(f"stated_client.py: cannot connect to {args.socket}: {error.strerror or error}"
              " (is stated running?)", file=sys.stderr)
        return 69
    with client:
        try:
            if args.command == "send":
                event = {"type": args.type}
                event.update(dict(args.fields))
                reply = client.send(args.feature, event)
                print(json.dumps({"outcome": reply["outcome"], "state": reply["state"],
                                  "seq": reply["seq"]}))
            elif args.command == "watch":
                for count, push in enumerate(client.watch(args.feature), start=1):
                    print(json.dumps({"seq": push["seq"], "state": push["state"]}), flush=True)
                    if args.count and count >= args.count:
                        break
            elif args.command == "get":
                print(json.dumps(client.get(args.feature)["state"]))
            elif args.command == "features":
                for feature in client.features():
                    print(f"{feature['name']}\t{feature['summary']}")
            elif args.command in ("describe", "undo", "redo"):
                reply = client.request(args.command, feature=args.feature)
                reply.pop("id", None)
                reply.pop("ok", None)
                print(json.dumps(reply))
            else:
                reply = client.ping()
                print(f"stated {reply['daemon']}, protocol {reply['protocol']}")
        except StatedError as error:
            print(f"stated_client.py: {error.code}: {error.message}", file=sys.stderr)
            return 1
        except (ConnectionError, OSError) as error:
            print(f"stated_client.py: {error}", file=sys.stderr)
            return 69
    return 0


if __name__ == "__main__":
    sys.exit(main())
