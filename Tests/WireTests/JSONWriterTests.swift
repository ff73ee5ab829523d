import Testing
import Wire

@Suite struct JSONWriterTests {
  @Test func compactOutputIsExact() {
    let json: JSON = [
      "id": 7, "ok": true, "none": nil, "pi": 3.25, "neg": -12, "list": [1, "two", [], [:]],
      "nested": ["z": false, "a": 0.5],
    ]
    #expect(
      json.serializedString()
        == #"{"id":7,"ok":true,"none":null,"pi":3.25,"neg":-12,"list":[1,"two",[],{}],"#
        + #""nested":{"z":false,"a":0.5}}"#)
    #expect(JSON.integer(.min).serializedString() == "-9223372036854775808")
    #expect(JSON.integer(.max).serializedString() == "9223372036854775807")
    #expect(JSON.integer(0).serializedString() == "0")
    #expect(JSON.integer(-7).serializedString() == "-7")
  }

  @Test func stringEscapes() {
    let text = "q\"b\\s/\n\r\t\u{08}\u{0C}\u{0}\u{1F}\u{7F}é😀"
    #expect(
      JSON.string(text).serializedString()
        == #""q\"b\\s/\n\r\t\b\f\u0000\u001f"# + "\u{7F}é😀\"")
  }

  /// The package's one decimal writer (also a journal record's and a reply's numbers): every
  /// number of digits, both sides of each power of ten, the extremes and random values, as
  /// Swift's own `String(_:)` spells them.
  @Test func integersAsSwiftSpellsThem() {
    var values: [Int64] = [0, .max, .min, .max - 1, .min + 1]
    var power: Int64 = 1
    for _ in 0..<19 {
      values += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1)]
      if power <= .max / 10 { power *= 10 }
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let bits = generator.next() as UInt64
      values.append(Int64(bitPattern: bits >> (bits % 64)))  // every size
    }
    for value in values {
      var writer = JSONWriter()
      writer.integer(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }
    for value: UInt64 in [.max, .max - 1, UInt64(Int64.max) + 1, 10_000_000_000_000_000_000] {
      var writer = JSONWriter()
      writer.unsigned(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }
  }

  @Test func doubles() {
    #expect(JSON.number(0.1).serializedString() == "0.1")
    #expect(JSON.number(5).serializedString() == "5.0")
    #expect(JSON.number(-0.0).serializedString() == "-0.0")
    #expect(JSON.number(1e-7).serializedString() == "1e-07")
    #expect(JSON.number(1e300).serializedString() == "1e+300")
    #expect(JSON.number(.nan).serializedString() == "null")
    #expect(JSON.number(.infinity).serializedString() == "null")
    #expect(JSON.number(-.infinity).serializedString() == "null")
  }

  static let roundTripValues: [JSON] = [
    nil, true, false, 0, 1, -1, .integer(.max), .integer(.min),
    0.5, -0.0, 1e-7, 1e300, .number(.leastNonzeroMagnitude), .number(.greatestFiniteMagnitude),
    .number(0.1 + 0.2), 5.0, 1e16, 123_456_789.123_456_79,
    "", "plain", "line\nbreak\r\n", "tab\tquote\"slash\\", "\u{0}\u{1}\u{1F}", "é中😀𝄞",
    [], [:], [1, [2, [3, [4]]]], ["a": ["b": ["c": nil]]],
    ["k\nk": "v\nv", "": "", "dup": [1, 2.5, "x", true, nil, [:], []]],
  ]

  @Test(arguments: roundTripValues)
  func roundTrip(value: JSON) throws {
    let bytes = value.serialized()
    #expect(!bytes.contains(UInt8(ascii: "\n")))
    #expect(!bytes.contains(UInt8(ascii: "\r")))
    let back = try JSON(parsing: bytes)
    #expect(back == value)
    #expect(back.serialized() == bytes)  // same case and order, not just equal
  }

  @Test func roundTripOfEveryByteAndManyNumbers() throws {
    var string = ""
    for scalar in (0..<0x800).compactMap(Unicode.Scalar.init) {
      string.unicodeScalars.append(scalar)
    }
    var numbers: [JSON] = []
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      numbers.append(.number(Double(bitPattern: generator.next())))  // any bits, NaN included
      numbers.append(.integer(Int64(bitPattern: generator.next())))
      numbers.append(.number(Double.random(in: -1000...1000)))
    }
    let value: JSON = ["text": .string(string), "numbers": .array(numbers)]
    let bytes = value.serialized()
    #expect(!bytes.contains(UInt8(ascii: "\n")))
    let back = try JSON(parsing: bytes)
    #expect(back["text"] == value["text"])
    for (index, number) in numbers.enumerated() {
      let parsed = back["numbers"]?[index]
      if case .number(let double) = number, !double.isFinite {
        #expect(parsed == .null)
      } else {
        #expect(parsed == number)
      }
    }
  }

  @Test func prettyPrinting() throws {
    let json: JSON = [
      "count": 3, "tags": ["a", 1.5], "extra": [:], "list": [], "deep": ["x": [nil]],
    ]
    let expected = """
      {
        "count": 3,
        "tags": [
          "a",
          1.5
        ],
        "extra": {},
        "list": [],
        "deep": {
          "x": [
            null
          ]
        }
      }
      """
    #expect(json.prettyPrinted() == expected)
    #expect(JSON.string("a\nb").prettyPrinted() == #""a\nb""#)
    #expect(try JSON(parsing: json.prettyPrinted()) == json)
  }

  @Test func descriptionIsCompactJSON() {
    let json: JSON = ["a": [1, "b"]]
    #expect(json.description == #"{"a":[1,"b"]}"#)
    #expect("\(json)" == #"{"a":[1,"b"]}"#)
    let object: JSONObject = ["k": 1]
    #expect(object.description == #"{"k":1}"#)
  }
}
