import Testing

@testable import Wire

/// The usual send (`{"op":"send","feature":…,"event":{"type":…}}`, optionally after an
/// integer `id`, as clients write it) is read without the general pass, into the very head
/// that pass gives; any other frame goes the general way.
@Suite struct UsualSendTests {
  func heads(_ text: String) -> (usual: String?, full: String?) {
    Array(text.utf8).withUnsafeBytes { bytes in
      func shown(_ head: RequestHead) -> String {
        "\(String(describing: head.id)) \(head.idAt) \(head.op) \(head.knownOp) \(head.opAt) "
          + "\(head.feature) \(head.featureEnd) \(head.event) \(head.eventTypeStart) "
          + "\(head.eventTypeEnd)"
      }
      let full = try? RequestHead.readInFull(bytes)
      return (RequestHead.usualSend(bytes).map(shown), full.map(shown))
    }
  }

  @Test func theUsualSendGivesTheHeadOfTheGeneralPass() {
    for text in [
      #"{"op":"send","feature":"counter","event":{"type":"increment"}}"#,
      #"{"op":"send","feature":"","event":{"type":""}}"#,
      #"{"id":0,"op":"send","feature":"a","event":{"type":"b"}}"#,
      #"{"id":-5,"op":"send","feature":"counter","event":{"type":"reset"}}"#,
      #"{"id":123456789012345678,"op":"send","feature":"x","event":{"type":"~ !"}}"#,
      "{\"op\":\"send\",\"feature\":\"c\u{7f}\",\"event\":{\"type\":\"nope\"}}",
    ] {
      let (usual, full) = heads(text)
      #expect(usual != nil, "\(text)")
      #expect(usual == full, "\(text)")
    }
  }

  @Test func anythingElseGoesTheGeneralWay() {
    for text in [
      #"{"id":-0,"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"id":01,"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"id":1234567890123456789,"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"id":1.5,"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"id":"7","op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"id":-,"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"op":"send","feature":"c","event":{"type":"a"}} "#,
      #" {"op":"send","feature":"c","event":{"type":"a"}}"#,
      #"{"op":"send","feature":"c","event":{"type":"a"}}}"#,
      #"{"op":"send","feature":"c","event":{"type":"a"}"#,
      #"{"op":"send","feature":"c","event":{"type":"a","value":1}}"#,
      #"{"op":"send","feature":"c","event":{"type":"a"},"x":1}"#,
      #"{"op":"send","feature":"c\"","event":{"type":"a"}}"#,
      #"{"op":"send","feature":"c","event":{"type":"a\u0062"}}"#,
      #"{"op":"send","feature":"cé","event":{"type":"a"}}"#,
      #"{"op":"sendx","feature":"c","event":{"type":"a"}}"#,
      #"{"op":"send","event":{"type":"a"},"feature":"c"}"#,
      #"{"op":"send","feature":"c","event":{"type":"#, #"{"op":"send""#, "",
    ] {
      #expect(heads(text).usual == nil, "\(text)")
    }
  }
}
