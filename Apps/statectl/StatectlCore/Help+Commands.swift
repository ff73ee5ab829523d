import Wire

extension Help {
  /// A command's own text: usage, what it does, examples.
  static func body(of name: CommandName) -> String {
    let body: String
    switch name {
    case .send:
      body = """
        Usage: statectl send FEATURE EVENT [FIELD=TEXT | FIELD:=JSON ...]
               statectl send FEATURE -

        Sends the event {"type": EVENT, FIELD: VALUE, ...} to FEATURE and prints the
        state after the event was handled (and its outcome when not "handled").
          FIELD=TEXT    the field is the string TEXT (which may contain '=')
          FIELD:=JSON   the field is the JSON value: a number, true, false, null,
                        an array or an object
          -             read the whole event from stdin, one JSON object with its
                        "type" (what 'statectl describe FEATURE' shows as examples)
        'statectl describe FEATURE' lists the events and the types of their fields.
        A number sent as text (value=50) is refused by an integer field; the error
        says to write value:=50.

        Examples:
          statectl send counter increment
          statectl send counter set value:=42
          statectl send settings set key=counterStep value:=5
          statectl send settings set key=counterMaximum value:=null
          statectl send search search term="text editor"
          echo '{"type":"set","value":5}' | statectl send counter -
          statectl -r 10 send counter increment
        """
    case .get:
      body = """
        Usage: statectl get FEATURE... [--select PATH]

        Prints the current state of each FEATURE, asked on one connection. With
        several features, each state is headed by its feature's name (piped or with
        --json: one line each, {"feature": FEATURE, "state": {...}, "seq": N}).
        A feature the daemon does not know is reported on stderr and the others
        are still printed (exit status 1).

          --select PATH  print only the part of the state at PATH (member names
                         separated by '.'); piped, the line is
                         {"seq": N, "select": PATH, "value": ...}

        Examples:
          statectl get counter
          statectl get counter --json | jq .state
          statectl get counter settings
          statectl get settings --select counterStep
          statectl get counter -r -1 -i 0.5
        """
    case .watch:
      body = """
        Usage: statectl watch FEATURE... [--select PATH] [--count N]

        Prints each FEATURE's current state, then each new state as it changes,
        until interrupted (Ctrl-C/SIGINT or SIGTERM: exit status 0) or, with
        --count N, after N states (the current ones count). Several features are
        watched on one connection; each text line then starts with the feature.
        Piped or with --json, each state is one line:
        {"feature": FEATURE, "seq": N, "state": {...}}.

          --select PATH  print only the part of the state at PATH (member names
                         separated by '.'), and only when it changed; the line is
                         {"feature": FEATURE, "seq": N, "select": PATH, "value": ...}
          -n, --count N  stop after N states

        Examples:
          statectl watch counter
          statectl watch counter --count 1
          statectl watch counter | jq .state.count
          statectl watch counter settings
          statectl watch search --select marks
        """
    case .monitor:
      body = """
        Usage: statectl monitor [FEATURE...] [--event TYPE] [--outcome OUTCOME]
                                [--count N] [--diff] [--record FILE]

        Prints every change and every event the daemon concludes in the given
        features (all when none is given), as it happens: the feature, what made
        it (an event, or undo, redo, goto, restore, migration), its outcome
        (handled, dropped, cancelled or failed, with the error) and the state
        before and after it. Runs until interrupted (exit status 0) or, with
        --count N, after N events. Piped or with --json, each event is one line:
        {"feature": F, "cause": "event", "event": {...}, "outcome": "handled",
         "seq": N, "time": "...", "before": {...}, "after": {...}}.

          --event TYPE     only events of this type (repeat for several)
          --outcome OUTCOME
                           only events with this outcome: handled, dropped,
                           cancelled or failed (repeat for several)
          -n, --count N    stop after N events (those printed)
          --diff           show only what changed, one line per added (+), removed
                           (-) or changed (~) member with its path, such as
                           '~ count: 4 → 5' (coloured on a terminal unless NO_COLOR
                           is set); with --json, each line gets "changes":
                           [{"path": "count", "op": "changed", "from": 4, "to": 5}]
          --record FILE    also write the session to FILE: a header with each
                           feature's description, state and seq, then every event
                           as received (PROTOCOL.md, "Recording files"), whatever
                           --event and --outcome print. Safe to stop at any moment;
                           'statectl replay FILE' replays it

        Examples:
          statectl monitor
          statectl monitor counter settings --diff
          statectl monitor --outcome failed
          statectl monitor settings --event set --count 1
          statectl monitor --record session.ndjson counter settings
        """
    case .features:
      body = """
        Usage: statectl features

        Lists the features the daemon serves.

        Examples:
          statectl features
          statectl features --json | jq -r '.features[].name'
        """
    case .describe:
      body = """
        Usage: statectl describe FEATURE

        Lists FEATURE's events with their fields and types, and the shape of its
        state, with an example command for each event.

        Examples:
          statectl describe counter
          statectl describe counter --json
        """
    case .undo:
      body = """
        Usage: statectl undo FEATURE

        Steps FEATURE's state back to the one before its last change and prints it.
        With nothing to undo, says so and prints the unchanged state (exit status 0;
        in JSON, "changed" is false). Refused (exit status 1) when the feature keeps
        no history ('statectl describe FEATURE' tells).

        Examples:
          statectl undo counter
        """
    case .redo:
      body = """
        Usage: statectl redo FEATURE

        Steps FEATURE's state forward again after an undo and prints it.
        With nothing to redo, says so and prints the unchanged state (exit status 0;
        in JSON, "changed" is false). Refused (exit status 1) when the feature keeps
        no history.

        Examples:
          statectl redo counter
        """
    case .history:
      body = """
        Usage: statectl history FEATURE [--last N | --since SEQ]

        Lists FEATURE's recorded changes, oldest first: each one's seq, time, what
        made it (the event with its fields, undo, redo, goto SEQ, restore,
        migration) and what it changed from the state before, one line per added
        (+), removed (-) or changed (~) member. The daemon keeps at least the last
        1000 changes of each feature, across restarts; the oldest seq it still
        retains is printed last. Piped or with --json, each change is one line:
        {"feature": F, "seq": N, "time": "...", "cause": "event",
         "event": {...}, "outcome": "handled", "state": {...}}.

          --last N     the last N changes (default 100)
          --since SEQ  the changes from SEQ on

        Examples:
          statectl history counter
          statectl history counter --last 20
          statectl history counter --since 40 --json | jq -c .state
        """
    case .goto:
      body = """
        Usage: statectl goto FEATURE SEQ

        Sets FEATURE to its state right after change SEQ (as 'statectl history
        FEATURE' lists them) and prints it. It is a new change like any other: it
        gets a new seq, is stored, can be undone, and is shown by watch, monitor
        and history (as "goto SEQ"). Refused (exit status 1, nothing changes) for a
        seq the daemon no longer retains or that is yet to come; the message names
        the seqs retained.

        Examples:
          statectl goto counter 42
          statectl history counter --last 5 && statectl goto counter 40
        """
    case .replay:
      body = """
        Usage: statectl replay FILE [--feature F...] [--skip-effects]

        Replays a recording ('statectl monitor --record FILE') against the daemon:
        sets each recorded feature to its recorded starting state (a change, cause
        restore), then sends the recorded changes in order (events as events,
        undo and redo as undo and redo, goto, restore and migration as a restore
        of the recorded state) and compares every outcome and resulting state with
        the recording. Exit status 0 when all match; 1 at the first divergence,
        with its seq, the event, and the expected and actual outcome and state
        (what differs, one line each). It changes the daemon's state: replay
        against a daemon of your own (stated --socket PATH --state-dir DIR).

        Events whose result depends on the outside world (the daemon's describe
        marks them "effects": true, such as a search of a live catalog) are
        compared on their outcome and the shape of the state only, and the
        recorded state is then restored, so what follows compares exactly; with
        --skip-effects they are not sent at all (their recorded state is
        restored). Events that were dropped or cancelled when recorded depended on
        timing, and are not sent. The report lists each of these.

        A file that is not a recording, of another format version, or naming a
        feature the daemon does not serve is refused before anything is sent
        (exit status 2, or 1 for the feature). A torn last line (a recording
        stopped mid-write) is ignored.

          --feature F     replay only feature F (repeatable; default: all recorded)
          --skip-effects  do not send events whose result depends on the outside world

        Examples:
          statectl replay session.ndjson
          statectl replay session.ndjson --feature counter
          statectl replay session.ndjson --json | jq .ok
        """
    case .exportTest:
      body = """
        Usage: statectl export-test FILE --feature F [--name NAME] [-o PATH]

        Writes a Swift Testing file that replays feature F of a recording with
        BlocTest: it seeds the recorded starting state, adds the recorded events
        (undo and redo as undo and redo, other changes as the recorded state) and
        expects the recorded states, all decoded through the feature's own
        declarations, so it needs no other code. Put it in the feature's test
        target (for this workspace: Tests/FeatureTests/<Feature>/); it compiles and
        passes there. Needs no daemon.

          --feature F    the recorded feature to test
          --name NAME    the test suite's type name (default: Recorded<Feature>Session)
          -o, --output PATH
                         write to PATH (default: standard output)

        Examples:
          statectl export-test session.ndjson --feature counter
          statectl export-test session.ndjson --feature counter \\
            -o Tests/FeatureTests/Counter/RecordedCounterSessionTests.swift
        """
    case .ping:
      body = """
        Usage: statectl ping

        Checks that the daemon answers and prints its version, its protocol
        version and the round-trip time.

        Examples:
          statectl ping
          statectl ping --socket /tmp/stated-test/stated.sock
        """
    case .info:
      body = """
        Usage: statectl info

        Prints the daemon's state, like redis-cli INFO: its version, protocol,
        pid, uptime, socket and state directory; the connections, and how many
        watch or monitor; the requests read and refused, the events by outcome;
        each feature's seq, state size, watchers and monitors; the --sync policy,
        the journal's file, size and records, and the newest snapshot. On a
        terminal, '# section' then 'key: value' lines; piped, the reply as one
        JSON object (PROTOCOL.md, "info").

        Examples:
          statectl info
          statectl info | jq .stats.events
          statectl -i 1 info --human
        """
    case .call:
      body = """
        Usage: statectl call REQUEST
               statectl call -

        Sends raw protocol requests (PROTOCOL.md) and prints each reply: REQUEST is
        one JSON object; with '-', NDJSON request lines are read from stdin, sent
        pipelined on one connection, and their replies printed in order (blank
        lines are skipped; pushes are not printed). Piped, each reply is the line
        the daemon sent; on a terminal, indented JSON. Exit status 1 when a reply
        has "ok": false (the reply says why); 2 when REQUEST is not a JSON object.
        Scripts need no socat.

        Examples:
          statectl call '{"op":"ping"}'
          statectl call '{"id":1,"op":"get","feature":"counter","select":"count"}'
          printf '%s\n' '{"op":"get","feature":"counter"}' '{"op":"info"}' | statectl call -
        """
    case .socket:
      body = """
        Usage: statectl socket

        Prints the path of the daemon's socket that statectl would use: --socket,
        else $STATED_SOCKET, else $XDG_RUNTIME_DIR/stated/stated.sock, else
        /tmp/stated-<uid>/stated.sock (the daemon's own default). Needs no daemon.

        Examples:
          export STATED_SOCKET="$(statectl socket)"
          echo '{"id":1,"op":"ping"}' | socat - UNIX-CONNECT:"$(statectl socket)"
        """
    case .completions:
      body = """
        Usage: statectl completions bash|zsh|fish

        Prints the completion script for a shell. It completes commands and
        options, and feature names, event types and field names from the running
        daemon (the features stated ships with when no daemon answers).
        Scripts/install installs them; to load one by hand:

        Examples:
          source <(statectl completions bash)
          statectl completions zsh > "${fpath[1]}/_statectl"
          statectl completions fish > ~/.config/fish/completions/statectl.fish
        """
    case .help:
      body = """
        Usage: statectl help [COMMAND]

        Shows the general help, or COMMAND's.

        Examples:
          statectl help send
          statectl send --help
        """
    }
    return body
  }
}
