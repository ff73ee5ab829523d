import FuzzSupport
import WireJSON

/// Fuzzes WireJSON's reader and writers: any bytes either fail to parse with a `JSONError`,
/// or parse to a value that survives a round trip. Checked for every value parsed:
///
/// - its compact serialization is one line (no raw line feed), parses back to an equal value,
///   and serializing that again gives the same bytes (the compact form is canonical);
/// - its pretty serialization parses back to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  checkJSON(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

func checkJSON(_ input: UnsafeRawBufferPointer) {
  guard let value = try? JSONParser().parse(input) else { return }

  let compact = value.serialized()
  fuzzCheck(!compact.contains(0x0A), "compact output has a raw line feed: \(value)")
  let reparsed: JSON
  do {
    reparsed = try JSONParser().parse(compact)
  } catch {
    fuzzCheck(
      false, "compact output does not parse (\(error)): \(String(decoding: compact, as: UTF8.self))"
    )
    return
  }
  fuzzCheck(reparsed == value, "round trip changed the value: \(value) became \(reparsed)")
  fuzzCheck(reparsed.serialized() == compact, "compact form is not canonical for \(value)")

  var pretty: [UInt8] = []
  JSONPrettyPrinter.write(value, to: &pretty)
  let prettyValue = try? JSONParser().parse(pretty)
  fuzzCheck(
    prettyValue == value,
    "pretty output does not parse back: \(String(decoding: pretty, as: UTF8.self))")
}

@main
enum FuzzJSONReplay {
  static func main() { FuzzReplay.main(name: "fuzz-json") { checkJSON($0) } }
}
