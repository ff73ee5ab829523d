import Testing
import Wire

@testable import StatectlCore

/// What `monitor --diff`, `history` and `replay` print for a change: one line per added,
/// removed or changed member, with its path.
@Suite struct StateDiffTests {
  @Test func equalStatesHaveNoChanges() {
    #expect(StateDiff.changes(from: ["count": 3], to: ["count": 3]).isEmpty)
    #expect(StateDiff.changes(from: ["a": 1, "b": 2], to: ["b": 2, "a": 1]).isEmpty)
  }

  @Test func changedAddedAndRemovedMembers() {
    let changes = StateDiff.changes(
      from: ["count": 4, "tag": "a", "same": true], to: ["count": 5, "same": true, "new": nil])
    #expect(changes == [.changed("count", 4, 5), .added("new", nil), .removed("tag", "a")])
    #expect(
      StateDiff.lines(of: changes) == ["~ count: 4 → 5", "+ new: null", "- tag: a"])
  }

  @Test func nestedObjectsAndArraysNameThePlace() {
    let before: JSON = [
      "marks": [["id": 1, "name": "bash"], ["id": 2, "name": "vim"]],
      "activity": ["status": "idle"],
    ]
    let after: JSON = [
      "marks": [["id": 1, "name": "bash"], ["id": 2, "name": "nvim"], ["id": 3, "name": "zsh"]],
      "activity": ["status": "idle"],
    ]
    #expect(
      StateDiff.lines(of: StateDiff.changes(from: before, to: after)) == [
        "~ marks[1].name: vim → nvim", #"+ marks[2]: {"id":3,"name":"zsh"}"#,
      ])
    #expect(
      StateDiff.lines(of: StateDiff.changes(from: ["list": [1, 2, 3]], to: ["list": [1]]))
        == ["- list[1]: 2", "- list[2]: 3"])
  }

  @Test func aChangeOfTypeIsOneChange() {
    #expect(
      StateDiff.changes(from: ["results": [1]], to: ["results": ["n": 1]])
        == [.changed("results", [1], ["n": 1])])
    #expect(StateDiff.lines(of: StateDiff.changes(from: 1, to: 2)) == ["~ (state): 1 → 2"])
  }

  @Test func oddKeysAreQuoted() {
    #expect(
      StateDiff.lines(of: StateDiff.changes(from: ["a": ["x y": 1]], to: ["a": ["x y": 2]]))
        == [#"~ a["x y"]: 1 → 2"#])
  }

  @Test func coloursOnATerminal() {
    let lines = StateDiff.lines(
      of: [.added("a", 1), .removed("b", 2), .changed("c", 3, 4)], colour: true)
    #expect(
      lines == [
        "\u{1B}[32m+ a: 1\u{1B}[0m", "\u{1B}[31m- b: 2\u{1B}[0m", "\u{1B}[33m~ c: 3 → 4\u{1B}[0m",
      ])
  }

  @Test func changesAsJSON() {
    #expect(
      StateDiff.json([.changed("count", 4, 5), .added("n", true), .removed("t", "a")])
        .serializedString()
        == #"[{"path":"count","op":"changed","from":4,"to":5},{"path":"n","op":"added","to":true},{"path":"t","op":"removed","from":"a"}]"#
    )
  }

  @Test func monitorDiffLines() {
    let push: JSONObject = [
      "push": "event", "feature": "counter", "cause": "event", "event": ["type": "increment"],
      "outcome": "handled", "seq": 7, "before": ["count": 11], "after": ["count": 12],
    ]
    #expect(
      MonitorFormat.line(push, json: false, diff: true)
        == "[7] counter increment: handled\n  ~ count: 11 → 12")
    var unchanged = push
    unchanged["after"] = ["count": 11]
    #expect(
      MonitorFormat.line(unchanged, json: false, diff: true)
        == "[7] counter increment: handled; unchanged")
    let json = MonitorFormat.line(push, json: true, diff: true)
    #expect(json.hasSuffix(#","changes":[{"path":"count","op":"changed","from":11,"to":12}]}"#))
  }

  @Test func changesNotMadeByAnEventAreNamedByTheirCause() {
    let undo: JSONObject = [
      "push": "event", "feature": "counter", "cause": "undo", "outcome": "handled", "seq": 9,
      "before": ["count": 5], "after": ["count": 4],
    ]
    #expect(MonitorFormat.line(undo, json: false) == "[9] counter undo: handled; count: 5 → 4")
    var goto = undo
    goto["cause"] = "goto"
    goto["target"] = 3
    #expect(MonitorFormat.line(goto, json: false).hasPrefix("[9] counter goto 3: handled"))
  }

  @Test func historyTable() {
    let transitions: [JSONObject] = [
      [
        "seq": 9, "time": "2026-12-01T19:20:01.123Z", "cause": "event",
        "event": ["type": "set", "value": 5], "outcome": "handled", "state": ["count": 5],
      ],
      ["seq": 10, "time": "2026-12-01T19:20:02.000Z", "cause": "undo", "state": ["count": 4]],
      [
        "seq": 11, "time": "2026-12-01T19:20:03.000Z", "cause": "goto", "target": 9,
        "state": ["count": 5],
      ],
    ]
    #expect(
      TransitionFormat.historyLines(
        transitions, before: ["count": 4], feature: "counter", oldest: 2, colour: false) == [
          " 9  2026-12-01 19:20:01.123  set (value: 5)",
          "      ~ count: 4 → 5",
          "10  2026-12-01 19:20:02.000  undo",
          "      ~ count: 5 → 4",
          "11  2026-12-01 19:20:03.000  goto 9",
          "      ~ count: 4 → 5",
          "(oldest seq retained for 'counter': 2)",
        ])
    #expect(
      TransitionFormat.historyLines(
        Array(transitions.prefix(1)), before: nil, feature: "counter", oldest: nil, colour: false)
        == ["9  2026-12-01 19:20:01.123  set (value: 5)", "     = count: 5"])
  }
}
