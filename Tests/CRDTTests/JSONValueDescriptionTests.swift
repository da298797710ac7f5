import Foundation
import Testing
import CRDT

/// `JSONValue` prints as JSON: payloads, presences and values read as what they are.
@Suite("JSONValue description")
struct JSONValueDescriptionTests {
  @Test("print and interpolation show JSON, members in order, strings quoted and escaped")
  func printsJSON() {
    let value: JSONValue = ["name": "ann \"A\"", "cursor": 3, "tags": ["x", .null, true, 1.5], "big": .long(5_000_000_000)]
    #expect(value.description == #"{"name":"ann \"A\"","cursor":3,"tags":["x",null,true,1.5],"big":5000000000}"#)
    #expect("\(value)" == value.jsonString)
    if case .object(let object) = value {
      #expect("\(object)" == value.jsonString)
    }
    let presence: [String: JSONValue] = ["cursor": 3]
    #expect("\(presence)" == #"["cursor": 3]"#)
    #expect(String(describing: JSONValue.string("a\nb")) == #""a\nb""#)
    #expect("\([JSONValue.bool(false), .integer(-1)])" == "[false, -1]")
  }
}
