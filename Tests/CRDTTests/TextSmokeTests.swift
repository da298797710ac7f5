import Testing
import CRDT

@Suite("Text smoke")
struct TextSmokeTests {
  @Test("edits split pieces and print one entry per visible piece")
  func edits() async throws {
    let doc = Document(key: "text")
    try await doc.update { root, _ in
      let text = root.setNewText("k1")
      try text.edit(0, 0, "ABCD")
      try text.edit(1, 3, "12")
    }
    #expect(await doc.toSortedJSON() == #"{"k1":[{"val":"A"},{"val":"12"},{"val":"D"}]}"#)
    try await doc.update { root, _ in
      let text = try #require(root.text("k1"))
      #expect(text.string == "A12D")
      #expect(text.length == 4)
      try text.setStyle(0, 2, ["bold": true])
    }
    #expect(await doc.toJSON() == #"{"k1":[{"attrs":{"bold":true},"val":"A"},{"attrs":{"bold":true},"val":"1"},{"val":"2"},{"val":"D"}]}"#)
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("UTF-16 offsets and surrogate pairs")
  func utf16() async throws {
    let doc = Document(key: "text")
    try await doc.update { root, _ in
      let text = root.setNewText("t")
      try text.edit(0, 0, "🌷🎁💩😜👍🏳")
      #expect(text.length == 12)
      #expect(throws: YorkieError.self) { try text.edit(1, 1, "x") }
      try text.edit(2, 4, "")
      #expect(text.string == "🌷💩😜👍🏳")
    }
  }

  @Test("concurrent inserts and deletes converge")
  func concurrent() async throws {
    let docs = try await makeReplicas(2)
    try await docs[0].update { root, _ in try root.setNewText("t").edit(0, 0, "abcd") }
    try await crossSync(docs[0], docs[1])
    try await docs[0].update { root, _ in try root.text("t")?.edit(1, 3, "X") }
    try await docs[1].update { root, _ in try root.text("t")?.edit(2, 2, "Y") }
    try await crossSync(docs[0], docs[1])
    let a = await docs[0].toJSON()
    #expect(a == (await docs[1].toJSON()))
    #expect(a == #"{"t":[{"val":"a"},{"val":"X"},{"val":"Y"},{"val":"d"}]}"#)
  }
}
