import BlocCore
import Wire

/// Encodes an `Encodable` state straight into Wire's ``JSON``: every state the daemon sends. It
/// walks the state's `EncodedValue` tree (BlocCore's one `Encoder`, which storage's writer walks
/// too). Its output is what `JSONEncoder` (sorted keys, slashes unescaped) writes and storage
/// keeps, read back by `JSONParser` (a test compares them for every feature). No text is
/// written and parsed again.
///
/// ```swift
/// let json = try StateEncoder.encode(CounterState(count: 3))  // {"count":3}
/// ```
/// Keys are sorted by their UTF-8 bytes (the feature states' keys sort the same way under
/// Foundation's rule; a test compares every feature's output). Integers become `.integer`
/// (`.number` above `Int64.max`, as the parser reads them); a `Double` with an integral value
/// up to 2^53 becomes `.integer`, as `JSONEncoder` writes it without a fraction. Types that
/// `JSONEncoder` treats specially (`Date`, `Data`, `Decimal`, `URL`, …) throw
/// ``Unsupported``: a state holds JSON's own types (store a date as a number or a string).
enum StateEncoder {
  /// A value whose JSON form depends on an encoder's strategy; refused.
  struct Unsupported: Error, CustomStringConvertible {
    let type: String
    var description: String {
      "\(type) has no single JSON form; store it as a number or a string in the state"
    }
  }

  static func encode(_ value: some Encodable) throws -> JSON {
    do {
      return json(try EncodedValue.capture(value))
    } catch let refusal as EncodedValue.NeedsStrategy {
      throw Unsupported(type: refusal.type)
    }
  }

  /// The JSON of a captured value (``encode(_:)`` captures first).
  static func json(_ value: EncodedValue) -> JSON {
    switch value.content {
    case .empty: return .object(JSONObject())
    case .null: return .null
    case .bool(let flag): return .bool(flag)
    case .integer(let number): return .integer(number)
    // Above Int64.max, as the parser reads it.
    case .unsigned(let number): return .number(Double(number))
    case .double(let number): return self.number(number)
    // JSONEncoder writes the float's shortest text, which the parser reads as a double.
    case .float(let number): return self.number(Double("\(number)") ?? Double(number))
    case .string(let text): return .string(text)
    case .array(let elements): return .array(elements.map(json))
    case .object(let members):
      var object = JSONObject()
      for member in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
        object[member.key] = json(member.value)
      }
      return .object(object)
    }
  }

  private static func number(_ value: Double) -> JSON {
    // JSONEncoder writes a double as Swift prints it, less a final ".0": an integral value
    // up to 2^53 (except -0.0) comes out without fraction or exponent, which the parser reads
    // as an integer.
    if value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992,
      !(value == 0 && value.sign == .minus)
    {
      return .integer(Int64(value))
    }
    return .number(value)
  }
}
