@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// The tree edits Yorkie's Go SDK made in `08-attach-tree.json`, made again through `JSONTree`
/// by the same actor: every operation must come out as the Go SDK sent it (the same tickets for
/// the nodes, the edit and its splits; the same positions, including Yorkie's offset arithmetic
/// on a left sibling's identity), or a Go peer and this SDK would disagree on what was meant.
@Suite("Tree operations as Yorkie's Go SDK makes them")
struct TreeGoParityTests {
  @Test("the recorded edits, made again through JSONTree, give the recorded operations")
  func recordedEditsAgain() async throws {
    let fixture = try Fixture.named("08-attach-tree.json")
    let attach = try #require(fixture.exchanges.first { $0["rpc"]?.stringValue == "AttachDocument" && $0["status"]?.intValue == 200 && $0["response"]?["changePack"] != nil })
    let pack = try WireChangePack(json: try #require(attach["response"]?["changePack"]), path: "changePack")
    let recorded = pack.changes.filter { !$0.operations.isEmpty }.map { $0.operations.map(\.json) }
    #expect(recorded.count == 8)

    let doc = Document(key: "doc")
    try await doc.setActor(try ActorID(hex: "6b0263497eb70a36f4ac3bcd"))
    try await doc.update { root, _ in
      _ = root.setNewTree("doc", .element("root", children: [
        .element("p", children: [.text("Hello")]),
        .element("p", attributes: ["align": "left"], children: [.text("World")]),
      ]))
    }
    try await doc.update { root, _ in try root.tree("doc")?.edit(6, 6, [.text("!")]) }            // Hello!
    try await doc.update { root, _ in try root.tree("doc")?.edit(0, 0, [.element("h1", children: [.text("Title")])]) }
    try await doc.update { root, _ in try root.tree("doc")?.edit(8, 10) }                        // deletes "He"
    try await doc.update { root, _ in try root.tree("doc")?.style(7, 8, ["align": "center", "bold": true]) }
    try await doc.update { root, _ in try root.tree("doc")?.removeStyle(7, 8, keys: ["bold"]) }
    try await doc.update { root, _ in try root.tree("doc")?.edit(10, 10, splitLevel: 1) }        // ll | o!
    try await doc.update { root, _ in try root.tree("doc")?.edit(14, 16) }                       // merges World in
    #expect(try await doc.tree(atPath: "$.doc")?.xml == #"<root><h1>Title</h1><p align="center">ll</p><p align="center">o!World</p></root>"#)

    let ours = await doc.pendingChanges.map { change in change.operations.map { PBOperation($0).json } }
    #expect(ours.count == recorded.count)
    for (index, (mine, theirs)) in zip(ours, recorded).enumerated() {
      #expect(mine == theirs, "change \(index + 1):\n ours \(mine)\n Go   \(theirs)")
    }
  }
}
