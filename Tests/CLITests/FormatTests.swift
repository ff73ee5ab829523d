import StatectlCore
import Testing
import Wire

@Suite struct HumanFormatTests {
  @Test func objectStateOneMemberPerLine() {
    #expect(HumanFormat.stateLines(["count": 1]) == ["count: 1"])
    #expect(
      HumanFormat.stateLines(["name": "Ada", "on": true, "none": nil, "tags": ["a"]])
        == ["name: Ada", "on: true", "none: null", #"tags: ["a"]"#])
  }

  @Test func scalarAndEmptyStates() {
    #expect(HumanFormat.stateLines(3) == ["3"])
    #expect(HumanFormat.stateLines([:]) == ["{}"])
    #expect(HumanFormat.stateLines("hi") == ["hi"])
  }

  @Test func textThatWouldMisleadIsQuoted() {
    #expect(HumanFormat.value("") == #""""#)
    #expect(HumanFormat.value(" padded") == #"" padded""#)
    #expect(HumanFormat.value("two\nlines") == #""two\nlines""#)
    #expect(HumanFormat.value("plain words") == "plain words")
  }

  @Test func longContainersArePrettyPrintedAndIndented() {
    let long: JSON = .array((1...30).map { JSON($0) })
    let lines = HumanFormat.stateLines(["items": long, "n": 1])
    #expect(lines[0] == "items:")
    #expect(lines[1] == "  [")
    #expect(lines[2] == "    1,")
    #expect(lines.last == "n: 1")
  }

  @Test func inlineForWatch() {
    #expect(HumanFormat.inline(["count": 3, "step": 1]) == "count: 3, step: 1")
    #expect(HumanFormat.inline(["o": ["a": 1]]) == #"o: {"a":1}"#)
    #expect(HumanFormat.inline(5) == "5")
  }

  @Test func tableAlignsColumns() {
    #expect(
      HumanFormat.table([["a", "bb", "c"], ["ccc", "", "d"]], indent: "  ")
        == ["  a    bb  c", "  ccc      d"])
  }
}

@Suite struct SchemaFormatTests {
  /// A `describe` reply as the daemon writes it (see PROTOCOL.md on the daemon branch).
  static let counter: JSONObject = [
    "feature": "counter", "summary": "A counter with a step.", "undo_redo": true,
    "events": [
      ["type": "increment", "summary": "Adds the step.", "fields": []],
      [
        "type": "set", "summary": "Sets the count.",
        "fields": [
          [
            "name": "value", "type": "integer", "expects": "integer ≥ 0", "required": true,
            "summary": "The new count.", "minimum": 0,
          ]
        ],
      ],
      [
        "type": "rename", "summary": "Names it.",
        "fields": [
          [
            "name": "label", "type": "string", "expects": "string", "required": false,
            "summary": "The label.",
          ]
        ],
      ],
    ],
    "state_shape": [
      [
        "name": "count", "type": "integer", "expects": "integer", "required": true,
        "summary": "The count.",
      ]
    ],
  ]

  @Test func describeTable() {
    let lines = SchemaFormat.describeLines(Self.counter, feature: "counter")
    let expected = [
      "counter: A counter with a step.",
      "",
      "Events:",
      "  EVENT      FIELD  TYPE         DESCRIPTION",
      "  increment                      Adds the step.",
      "  set                            Sets the count.",
      "             value  integer ≥ 0  The new count.",
      "  rename                         Names it.",
      "             label  string?      The label.",
      "",
      "State:",
      "  FIELD  TYPE     DESCRIPTION",
      "  count  integer  The count.",
      "",
      "Undo/redo: yes (statectl undo counter)",
      "",
      "Examples:",
      "  statectl send counter increment",
      "  statectl send counter set value:=<integer>",
      "  statectl send counter rename",
    ]
    #expect(lines == expected)
  }

  @Test func typesWithoutExpects() {
    #expect(SchemaFormat.typeText("string") == "string")
    #expect(
      SchemaFormat.typeText(["type": "integer", "minimum": 1, "maximum": 9]) == "integer 1…9")
    #expect(SchemaFormat.typeText(["type": "string", "values": ["a", "b"]]) == "one of a | b")
    #expect(
      SchemaFormat.typeText(["type": "array", "items": ["type": "string"]]) == "array of string")
  }

  @Test func featuresList() {
    let reply: JSONObject = [
      "features": [
        ["name": "counter", "summary": "Counts."], ["name": "settings", "summary": "Prefs."],
      ]
    ]
    #expect(SchemaFormat.featureLines(reply) == ["counter   Counts.", "settings  Prefs."])
    #expect(SchemaFormat.featureLines(["features": ["a", "b"]]) == ["a", "b"])
    #expect(SchemaFormat.featureLines(["features": []]) == ["(the daemon serves no features)"])
  }
}
