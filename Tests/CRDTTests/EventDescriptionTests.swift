import Foundation
import Testing
import CRDT

/// The short descriptions of operation infos and events, and the attributes style events carry.
@Suite("Event descriptions")
struct EventDescriptionTests {
  /// The operations of the next local change of `doc` made by `body`.
  private func operations(
    of doc: Document, _ body: sending (JSONObject, Presence) throws -> Void
  ) async throws -> [OperationInfo] {
    let events = await doc.events()
    try await doc.update(body)
    for await event in events {
      if case .localChange(let change) = event { return change.operations }
    }
    return []
  }

  @Test("each kind of operation info prints its kind, path and set fields")
  func operationInfoDescriptions() {
    let cases: [(OperationInfo, String)] = [
      (OperationInfo(type: .set, path: "$.todos.0", key: "title"), "set $.todos.0 key=title"),
      (OperationInfo(type: .remove, path: "$", key: "meta"), "remove $ key=meta"),
      (OperationInfo(type: .remove, path: "$.todos", index: 3), "remove $.todos index=3"),
      (OperationInfo(type: .add, path: "$.todos", index: 2), "add $.todos index=2"),
      (OperationInfo(type: .move, path: "$.todos", index: 2, previousIndex: 0), "move $.todos index=0->2"),
      (OperationInfo(type: .arraySet, path: "$.todos"), "array-set $.todos"),
      (OperationInfo(type: .increase, path: "$.likes", value: .long(-2)), "increase $.likes -2"),
      (OperationInfo(type: .edit, path: "$.text", from: 0, to: 2, value: "hi"), #"edit $.text 0..<2 "hi""#),
      (OperationInfo(type: .edit, path: "$.text", from: 1, to: 1, value: "a\"b", attributes: ["b": true]),
       #"edit $.text 1..<1 "a\"b" {"b":true}"#),
      (OperationInfo(type: .style, path: "$.text", from: 0, to: 5, attributes: ["size": 12, "color": "red"],
                     attributesToRemove: []),
       #"style $.text 0..<5 {"color":"red","size":12}"#),
      (OperationInfo(type: .style, path: "$.text", from: 0, to: 5, attributes: [:],
                     attributesToRemove: ["bold", "italic"]),
       "style $.text 0..<5 remove=bold,italic"),
    ]
    for (info, expected) in cases {
      #expect(info.description == expected)
      #expect("\(info)" == expected)
    }
  }

  @Test("the kinds' raw values are Yorkie's names")
  func kindNames() {
    #expect(OperationInfo.Kind.allCases.map(\.rawValue)
      == ["set", "remove", "add", "move", "array-set", "increase", "edit", "style", "tree-edit", "tree-style"])
    #expect(OperationInfo.Kind(rawValue: "array-set") == .arraySet)
    #expect(OperationInfo.Kind.arraySet.description == "array-set")
  }

  @Test("peer presences, change events and every document event print on one short line")
  func eventDescriptions() throws {
    let ann = try ActorID(hex: "65a1b2c3d4e5f60718293a4b")
    let peer = PeerPresence(actorID: ann, presence: ["name": "ann", "cursor": ["x": 1, "y": 2]])
    #expect(peer.description == #"…293a4b {"cursor":{"x":1,"y":2},"name":"ann"}"#)

    let infos = [OperationInfo(type: .set, path: "$", key: "a"), OperationInfo(type: .set, path: "$", key: "b")]
    let change = ChangeEvent(actorID: ann, message: nil, operations: infos, clientSeq: 5)
    #expect(change.description == "actor …293a4b, 2 ops, seq 5")
    let single = ChangeEvent(actorID: .initial, message: "add \"todo\"", operations: [infos[0]], clientSeq: 1)
    #expect(single.description == #"actor …000000, 1 op, seq 1, "add \"todo\"""#)

    let cases: [(DocEvent, String)] = [
      (.localChange(single), #"localChange(actor …000000, 1 op, seq 1, "add \"todo\"")"#),
      (.remoteChange(change), "remoteChange(actor …293a4b, 2 ops, seq 5)"),
      (.snapshot, "snapshot"),
      (.statusChanged(.attached), "statusChanged(attached)"),
      (.statusChanged(.removed), "statusChanged(removed)"),
      (.initialized([]), "initialized([])"),
      (.initialized([PeerPresence(actorID: ann, presence: [:]), PeerPresence(actorID: .initial, presence: ["a": 1])]),
       #"initialized([…293a4b {}, …000000 {"a":1}])"#),
      (.watched(PeerPresence(actorID: ann, presence: ["name": "ann"])), #"watched(…293a4b {"name":"ann"})"#),
      (.unwatched(PeerPresence(actorID: ann, presence: [:])), "unwatched(…293a4b {})"),
      (.presenceChanged(PeerPresence(actorID: ann, presence: ["cursor": 3])),
       #"presenceChanged(…293a4b {"cursor":3})"#),
    ]
    for (event, expected) in cases {
      #expect(event.description == expected)
    }
  }

  @Test("a local change's operations describe themselves")
  func localChangeDescriptions() async throws {
    let doc = Document(key: "d")
    let infos = try await operations(of: doc) { root, _ in
      root["todos"] = ["a", "b"]
      try root.array("todos")?.append("c")
      try root.array("todos")?.move(from: 0, to: 2)
      try root.array("todos")?.remove(at: 0)
      try root.array("todos")?.set("z", at: 0)
      root.setNewCounter("likes", .int(0)).increase(by: 2)
      root.remove("likes")
    }
    #expect(infos.map(\.description) == [
      "set $ key=todos", "add $.todos index=2", "move $.todos index=0->2", "remove $.todos index=0",
      "array-set $.todos", "set $ key=likes", "increase $.likes 2", "remove $ key=likes",
    ])
  }

  @Test("style events carry the attributes they set and the names they removed")
  func styleAttributes() async throws {
    let (a, b) = await makeReplicas()
    try await a.update { root, _ in _ = root.setNewText("t") }
    try await crossSync(a, b)
    let remoteEvents = await b.events()

    let local = try await operations(of: a) { root, _ in
      let text = try #require(root.text("t"))
      try text.edit(0, 0, "Hello", attributes: ["font": "serif"])
      try text.setStyle(0, 5, ["bold": true, "color": "red"])
      try text.removeStyle(1, 3, keys: ["bold"])
    }
    #expect(local == [
      OperationInfo(type: .edit, path: "$.t", from: 0, to: 0, value: "Hello", attributes: ["font": "serif"]),
      OperationInfo(type: .style, path: "$.t", from: 0, to: 5, attributes: ["bold": true, "color": "red"],
                    attributesToRemove: []),
      OperationInfo(type: .style, path: "$.t", from: 1, to: 3, attributes: [:], attributesToRemove: ["bold"]),
    ])
    #expect(local.map(\.description) == [
      #"edit $.t 0..<0 "Hello" {"font":"serif"}"#,
      #"style $.t 0..<5 {"bold":true,"color":"red"}"#,
      "style $.t 1..<3 remove=bold",
    ])

    try await crossSync(a, b)
    var remote: [OperationInfo] = []
    for await event in remoteEvents {
      if case .remoteChange(let change) = event {
        remote = change.operations
        break
      }
    }
    #expect(remote == local)
  }

  @Test("an edit without attributes reports none")
  func plainEditHasNoAttributes() async throws {
    let doc = Document(key: "d")
    let infos = try await operations(of: doc) { root, _ in
      try root.setNewText("t").edit(0, 0, "x")
    }
    #expect(infos.last == OperationInfo(type: .edit, path: "$.t", from: 0, to: 0, value: "x"))
    #expect(infos.last?.attributes == nil)
    #expect(infos.last?.attributesToRemove == nil)
  }
}
