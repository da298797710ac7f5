import Foundation
import Testing
import CRDT

// The eight primitive types and how `toJSON` prints them: the JS SDK's rules
// (yorkie-reference.md 2.9): Integer/Long in decimal, Double as JS `Number#toString`, Bytes as
// standard base64 with padding, Date as ISO-8601 UTC with milliseconds, strings escaped by JS
// `escapeString` (", \, LF, CR, FF, BS, TAB, U+2028, U+2029; everything else verbatim,
// including the apostrophe). Go prints doubles with %f and dates without milliseconds; the
// expectations below follow JS.

/// One Double and the string JS `String(x)` gives for it (checked against node).
struct DoubleCase: Sendable, CustomTestStringConvertible {
  var value: Double
  var json: String
  var testDescription: String { json }
}

/// Bytes and their standard, padded base64.
struct BytesCase: Sendable, CustomTestStringConvertible {
  var bytes: [UInt8]
  var base64: String
  var testDescription: String { base64.isEmpty ? "(empty)" : base64 }
}

/// A date (seconds since 1970, whole milliseconds) and JS `Date#toISOString`.
struct DateCase: Sendable, CustomTestStringConvertible {
  var seconds: Double
  var iso: String
  var testDescription: String { iso }
}

@Suite("Primitive serialization")
struct PrimitiveSerializationTests {
  @Test("all eight primitive types print as the JS SDK prints them, on both replicas")
  func allPrimitiveTypes() async throws {
    // Mirrors JS integration primitive_test "Can handle primitive types" (exact strings added:
    // Yorkie compares the replicas; the date is fixed instead of `new Date()`)
    let (d1, d2) = await makeReplicas()
    try await d1.update { root, _ in
      root["k0"] = .null
      root["k1"] = true
      root["k2"] = 2147483647
      root["k3"] = .long(Int64.max)
      root["k4"] = 1.79
      root["k5"] = "4"
      root["k6"] = .bytes(Data([65, 66]))
      root["k7"] = .date(Date(timeIntervalSince1970: 1646212200))
    }
    let expected =
      #"{"k0":null,"k1":true,"k2":2147483647,"k3":9223372036854775807,"k4":1.79,"k5":"4","k6":"QUI=","k7":"2022-03-02T09:10:00.000Z"}"#
    #expect(await d1.toJSON() == expected)
    try await crossSync(d1, d2)
    #expect(await d2.toJSON() == expected)
    #expect(await d2.toSortedJSON() == expected)
  }

  @Test("an object literal of every primitive kind, sorted")
  func primitiveObjectLiteral() async throws {
    // Mirrors Go test/integration TestObject "object.set with json literal primitive type test",
    // with the JS formatting of double, bytes and date
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["obj"] = [
        "nill": nil,
        "bool": true,
        "long": 9223372036854775807,
        "int": 32,
        "double": 1.79,
        "bytes": .bytes(Data([65, 66])),
        "date": .date(Date(timeIntervalSince1970: 1646212200)),
      ]
    }
    #expect(
      await doc.toSortedJSON()
        == #"{"obj":{"bool":true,"bytes":"QUI=","date":"2022-03-02T09:10:00.000Z","double":1.79,"int":32,"long":9223372036854775807,"nill":null}}"#)
    #expect(
      await doc.toJSON()
        == #"{"obj":{"nill":null,"bool":true,"long":9223372036854775807,"int":32,"double":1.79,"bytes":"QUI=","date":"2022-03-02T09:10:00.000Z"}}"#)
  }

  @Test("primitive values read back with their exact type")
  func valuesReadBack() async throws {
    // Mirrors JS unit crdt/primitive_test "primitive test" / "valueFromBytes test": every type
    // keeps its type and value. Here through value(atPath:) on the public API.
    let doc = Document(key: "test-doc")
    let date = Date(timeIntervalSince1970: 819170640)  // 1995-12-17T03:24:00Z
    try await doc.update { root, _ in
      root["null"] = .null
      root["bool"] = false
      root["int"] = 2147483647
      root["double"] = 1.79
      root["string"] = "4"
      root["long"] = .long(Int64.max)
      root["bytes"] = .bytes(Data([65, 66]))
      root["date"] = .date(date)
    }
    #expect(try await doc.value(atPath: "$.null") == .null)
    #expect(try await doc.value(atPath: "$.bool") == .bool(false))
    #expect(try await doc.value(atPath: "$.int") == .integer(2147483647))
    #expect(try await doc.value(atPath: "$.double") == .double(1.79))
    #expect(try await doc.value(atPath: "$.string") == .string("4"))
    #expect(try await doc.value(atPath: "$.long") == .long(Int64.max))
    #expect(try await doc.value(atPath: "$.bytes") == .bytes(Data([65, 66])))
    #expect(try await doc.value(atPath: "$.date") == .date(date))
    #expect(
      await doc.toJSON()
        == #"{"null":null,"bool":false,"int":2147483647,"double":1.79,"string":"4","long":9223372036854775807,"bytes":"QUI=","date":"1995-12-17T03:24:00.000Z"}"#)
  }

  @Test("integer literals are Integer inside Int32 and Long outside it")
  func integerLiteralKinds() async throws {
    // api.md JSONValue: "an integer literal is .integer when it fits in Int32, else .long (as the
    // JS SDK stores numbers)"; JS Primitive.getPrimitiveType promotes beyond 2^31-1 / -2^31.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["maxInt"] = 2147483647
      root["minInt"] = -2147483648
      root["aboveInt"] = 2147483648
      root["belowInt"] = -2147483649
      root["maxLong"] = 9223372036854775807
      root["minLong"] = .long(Int64.min)
      root["smallLong"] = .long(1)
    }
    #expect(try await doc.value(atPath: "$.maxInt") == .integer(2147483647))
    #expect(try await doc.value(atPath: "$.minInt") == .integer(-2147483648))
    #expect(try await doc.value(atPath: "$.aboveInt") == .long(2147483648))
    #expect(try await doc.value(atPath: "$.belowInt") == .long(-2147483649))
    #expect(try await doc.value(atPath: "$.maxLong") == .long(9223372036854775807))
    #expect(try await doc.value(atPath: "$.smallLong") == .long(1))
    #expect(
      await doc.toJSON()
        == #"{"maxInt":2147483647,"minInt":-2147483648,"aboveInt":2147483648,"belowInt":-2147483649,"maxLong":9223372036854775807,"minLong":-9223372036854775808,"smallLong":1}"#)
  }

  @Test(
    "doubles print as JS Number#toString",
    arguments: [
      DoubleCase(value: 1.79, json: "1.79"),
      DoubleCase(value: 0.5, json: "0.5"),
      DoubleCase(value: -2.5, json: "-2.5"),
      DoubleCase(value: 1.0, json: "1"),
      DoubleCase(value: -0.0, json: "0"),
      DoubleCase(value: 42.2, json: "42.2"),
      DoubleCase(value: 1.2345, json: "1.2345"),
      DoubleCase(value: 123.456, json: "123.456"),
      DoubleCase(value: 0.1 + 0.2, json: "0.30000000000000004"),
      DoubleCase(value: 0.000001, json: "0.000001"),
      DoubleCase(value: 1e-7, json: "1e-7"),
      DoubleCase(value: 1e20, json: "100000000000000000000"),
      DoubleCase(value: 1e21, json: "1e+21"),
      DoubleCase(value: 9007199254740992, json: "9007199254740992"),
      DoubleCase(value: Double.leastNonzeroMagnitude, json: "5e-324"),
      DoubleCase(value: 1.7976931348623157e308, json: "1.7976931348623157e+308"),
    ])
  func doubleFormatting(_ testCase: DoubleCase) async throws {
    // Serialization rule (yorkie-reference.md 2.9): JS Primitive.toJSON prints `${value}`.
    // Expected strings checked with node's String(x).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["d"] = .double(testCase.value)
    }
    #expect(await doc.toJSON() == #"{"d":"# + testCase.json + "}")
  }

  @Test(
    "bytes print as padded standard base64",
    arguments: [
      BytesCase(bytes: [], base64: ""),
      BytesCase(bytes: [0], base64: "AA=="),
      BytesCase(bytes: [65, 66], base64: "QUI="),
      BytesCase(bytes: [255, 254, 253], base64: "//79"),
      BytesCase(bytes: [0xFB, 0xFF], base64: "+/8="),
      BytesCase(bytes: Array("yorkie".utf8), base64: "eW9ya2ll"),
    ])
  func bytesFormatting(_ testCase: BytesCase) async throws {
    // Serialization rule (yorkie-reference.md 2.9); JS Primitive.toJSON uses btoa.
    // Go prints raw bytes instead (`"AB"`); this follows JS.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["b"] = .bytes(Data(testCase.bytes))
    }
    #expect(await doc.toJSON() == #"{"b":""# + testCase.base64 + #""}"#)
  }

  @Test(
    "dates print as ISO-8601 UTC with milliseconds",
    arguments: [
      DateCase(seconds: 0, iso: "1970-01-01T00:00:00.000Z"),
      DateCase(seconds: 819170640, iso: "1995-12-17T03:24:00.000Z"),
      DateCase(seconds: 951782400.5, iso: "2000-02-29T00:00:00.500Z"),
      DateCase(seconds: 1646212200, iso: "2022-03-02T09:10:00.000Z"),
      DateCase(seconds: 1704164645.25, iso: "2024-01-02T03:04:05.250Z"),
    ])
  func dateFormatting(_ testCase: DateCase) async throws {
    // Serialization rule (yorkie-reference.md 2.9); JS Primitive.toJSON uses toISOString.
    // Expected strings checked with node's new Date(ms).toISOString().
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["t"] = .date(Date(timeIntervalSince1970: testCase.seconds))
    }
    #expect(await doc.toJSON() == #"{"t":""# + testCase.iso + #""}"#)
  }

  @Test("quotes, backslashes and control characters are escaped in strings")
  func escapesStringInObject() async throws {
    // Mirrors JS unit document_test "escapes string for object"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["a"] = .string("\"hello\"\n\u{0C}\u{08}\r\t\\")
    }
    #expect(await doc.toSortedJSON() == #"{"a":"\"hello\"\n\f\b\r\t\\"}"#)
    #expect(await doc.toJSON() == #"{"a":"\"hello\"\n\f\b\r\t\\"}"#)
  }

  @Test("strings inside arrays are escaped")
  func escapesStringInArray() async throws {
    // Mirrors JS unit document_test "escapes string for elements in array"
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = ["\"hello\"", "\n", "\u{08}", "\t", "\u{0C}", "\r", "\\"]
    }
    #expect(await doc.toSortedJSON() == #"{"data":["\"hello\"","\n","\b","\t","\f","\r","\\"]}"#)
  }

  @Test("a single quote is printed verbatim, a backslash before it is escaped")
  func singleQuotes() async throws {
    // Mirrors JS unit document_test "should handle escape string for strings containing single
    // quotes". Known divergence: iOS prints \' (invalid JSON); this follows JS.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["str"] = "I'm yorkie"
    }
    #expect(await doc.toSortedJSON() == #"{"str":"I'm yorkie"}"#)
    try await doc.update { root, _ in
      root["str"] = "I\\'m yorkie"
    }
    #expect(await doc.toSortedJSON() == #"{"str":"I\\'m yorkie"}"#)
  }

  @Test("U+2028 and U+2029 are escaped")
  func lineAndParagraphSeparators() async throws {
    // Serialization rule (yorkie-reference.md 2.9): JS escapeString turns U+2028/U+2029 into
    // \u2028/\u2029 (Go does not; this follows JS).
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["s"] = .string("a\u{2028}b\u{2029}c")
    }
    #expect(await doc.toJSON() == #"{"s":"a\u2028b\u2029c"}"#)
  }

  @Test("non-ASCII text, slashes and emoji are printed verbatim")
  func verbatimCharacters() async throws {
    // Serialization rule (yorkie-reference.md 2.9): everything outside the escaped set is verbatim.
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["s"] = "하늘 é/😀<>&"
    }
    #expect(await doc.toJSON() == #"{"s":"하늘 é/😀<>&"}"#)
  }

  @Test("object keys are escaped like strings")
  func escapedKeys() async throws {
    // Mirrors JS unit document_test "should handle escape string for object keys" (iOS does not
    // escape keys; this follows JS)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["it\"s"] = "yorkie"
    }
    #expect(await doc.toSortedJSON() == #"{"it\"s":"yorkie"}"#)
    try await doc.update { root, _ in
      root["line\nbreak"] = 1
      root["back\\slash"] = 2
    }
    #expect(await doc.toJSON() == #"{"it\"s":"yorkie","line\nbreak":1,"back\\slash":2}"#)
  }

  @Test("null, booleans and empty containers print as JSON literals")
  func literalsAndEmptyContainers() async throws {
    // Mirrors JS unit document_test "null value test" and the empty containers of Go TestObjectSet
    // ("zeroValue array struct" prints `[]`)
    let doc = Document(key: "test-doc")
    try await doc.update { root, _ in
      root["data"] = ["": nil, "null": nil]
      root["flags"] = [nil, true, false]
      root["o"] = [:]
      root["a"] = []
      root["s"] = ""
    }
    #expect(await doc.toJSON() == #"{"data":{"":null,"null":null},"flags":[null,true,false],"o":{},"a":[],"s":""}"#)
    #expect(await doc.toSortedJSON() == #"{"a":[],"data":{"":null,"null":null},"flags":[null,true,false],"o":{},"s":""}"#)
  }
}
