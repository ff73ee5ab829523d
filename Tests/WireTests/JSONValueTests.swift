import Testing
import Wire

@Suite struct JSONValueTests {
  @Test func literalsBuildTheRightCases() {
    let json: JSON = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1], "o": ["k": "v"]]
    #expect(json["n"] == .null)
    #expect(json["b"] == .bool(true))
    #expect(json["i"] == .integer(3))
    #expect(json["d"] == .number(2.5))
    #expect(json["s"] == .string("x"))
    #expect(json["a"] == .array([.integer(1)]))
    #expect(json["o"] == .object(JSONObject([("k", .string("v"))])))
    #expect(JSON(5) == .integer(5))
    #expect(JSON(Int64(5)) == .integer(5))
    #expect(JSON(5.0) == .number(5))
    #expect(JSON("s") == .string("s"))
    #expect(JSON(false) == .bool(false))
  }

  @Test func accessors() {
    let json: JSON = [
      "s": "x", "i": 7, "d": 2.0, "f": 2.5, "b": false, "a": [1, 2], "o": [:], "n": nil,
    ]
    #expect(json["s"]?.stringValue == "x")
    #expect(json["i"]?.intValue == 7)
    #expect(json["i"]?.int64Value == 7)
    #expect(json["i"]?.doubleValue == 7.0)
    #expect(json["d"]?.intValue == 2)
    #expect(json["f"]?.intValue == nil)
    #expect(json["f"]?.doubleValue == 2.5)
    #expect(json["b"]?.boolValue == false)
    #expect(json["a"]?.arrayValue == [1, 2])
    #expect(json["a"]?[1] == 2)
    #expect(json["a"]?[2] == nil)
    #expect(json["a"]?[-1] == nil)
    #expect(json["o"]?.objectValue == JSONObject())
    #expect(json["n"]?.isNull == true)
    #expect(json["missing"] == nil)
    #expect(json["s"]?.intValue == nil)
    #expect(json["i"]?.stringValue == nil)
    #expect(JSON.string("x")["key"] == nil)
    #expect(JSON.number(1e30).intValue == nil)
    #expect(json.typeName == "object")
    #expect(JSON.integer(1).typeName == "number")
    #expect(JSON.bool(true).typeName == "boolean")
  }

  @Test func settingMembers() {
    var json: JSON = ["a": 1]
    json["b"] = "two"
    json["a"] = 3
    #expect(json.objectValue?.keys == ["a", "b"])
    #expect(json["a"] == 3)
    json["a"] = nil
    #expect(json == ["b": "two"])
  }

  @Test func objectOrderAndMutation() {
    var object: JSONObject = ["b": 1, "a": 2]
    object["c"] = 3
    object["b"] = 10
    #expect(object.keys == ["b", "a", "c"])
    #expect(object.values == [10, 2, 3])
    #expect(object.removeValue(forKey: "a") == 2)
    #expect(object.removeValue(forKey: "a") == nil)
    #expect(object.keys == ["b", "c"])
    #expect(object.index(forKey: "c") == 1)
    #expect(object.map(\.key) == ["b", "c"])
    #expect(object.count == 2)
  }

  @Test func largeObjectsStayCorrectAcrossTheIndexThreshold() {
    var object = JSONObject()
    for index in 0..<100 { object["k\(index)"] = .integer(Int64(index)) }
    #expect(object.count == 100)
    #expect(object["k57"] == 57)
    #expect(object.keys.first == "k0" && object.keys.last == "k99")
    for index in stride(from: 0, to: 100, by: 2) { object["k\(index)"] = nil }
    #expect(object.count == 50)
    #expect(object["k57"] == 57)
    #expect(object["k56"] == nil)
    #expect(object.index(forKey: "k1") == 0)
    object["k1"] = "x"
    #expect(object.index(forKey: "k1") == 0)
    object["new"] = true
    #expect(object.keys.last == "new")
    #expect(object["new"] == true)
  }

  @Test func objectEqualityIgnoresOrderAndHashAgrees() {
    let first: JSON = ["a": 1, "b": [1, 2]]
    let second: JSON = ["b": [1, 2], "a": 1]
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(Set([first, second]).count == 1)
    #expect(first != ["a": 1, "b": [2, 1]])  // arrays keep order
    #expect(first != ["a": 1])
    #expect(first != ["a": 1, "b": [1, 2], "c": nil])
  }

  @Test func integersAndDoublesAreDistinctCases() {
    #expect(JSON.integer(1) != JSON.number(1))
    #expect(JSON.number(0) == JSON.number(-0.0))
  }
}
