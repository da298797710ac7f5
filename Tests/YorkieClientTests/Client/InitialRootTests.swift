import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// `initialRoot` with texts and counters, the shape reaching the server inside the attach, the
/// report of an overwritten element when two first attaches race anyway, and a document that
/// refuses edits once its attachment ended. Real HTTP against the in-process server.
@Suite("Client: initial root and ended attachments", .timeLimit(.minutes(2)))
struct InitialRootTests {
  private static let shape: [String: InitialValue] = ["note": .text(), "likes": .counter(.int(0)), "todos": []]

  private func withServer(_ body: (URL, YorkieDevServer) async throws -> Void) async throws {
    let server = YorkieDevServer(configuration: .init())
    let url = try server.start()
    defer { server.stop() }
    try await body(url, server)
  }

  @Test("a client attaching after another returned finds its text and counter, and both clients' typing stays")
  func sequentialAttachesShareTheShape() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "shape-doc")
      let docB = Document(key: "shape-doc")
      try await a.attach(docA, initialRoot: Self.shape)
      // a types at once; b attaches right after a's attach returned, and types too.
      try await docA.update { root, _ in
        try root.text("note")?.edit(0, 0, "ann ")
        root.counter("likes")?.increase(by: 2)
      }
      try await b.attach(docB, initialRoot: Self.shape)
      try await docB.update { root, _ in
        try root.text("note")?.edit(0, 0, "bob ")
        root.counter("likes")?.increase(by: 3)
      }
      for (client, doc) in [(a, docA), (b, docB)] {
        try await client.waitUntilAcknowledged(doc)
      }
      try await a.sync(docA)
      try await b.sync(docB)
      let final = await docA.toSortedJSON()
      #expect(final == (await docB.toSortedJSON()))
      #expect(final == (try await serverJSON(server, "shape-doc")))
      let note = try await docA.text(atPath: "$.note")?.string ?? ""
      #expect(note.contains("ann") && note.contains("bob"), "note: \(note)")
      #expect(await docA.value["likes"]?.int == 5)
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("initialRoot builds texts and counters at any depth and leaves keys the document has alone")
  func nestedShape() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let doc = Document(key: "nested-doc")
      try await a.attach(
        doc,
        initialRoot: [
          "board": ["title": "Plan", "columns": [.text("todo"), .counter(.long(7)), ["done": false]]],
          "count": .counter(.int(1)),
        ])
      #expect(
        await doc.toSortedJSON()
          == #"{"board":{"columns":[[{"val":"todo"}],7,{"done":false}],"title":"Plan"},"count":1}"#)
      // A later attach with another shape keeps what is there and adds what is missing.
      let b = try await activatedClient(url, key: "b")
      let second = Document(key: "nested-doc")
      try await b.attach(second, initialRoot: ["count": .counter(.int(100)), "extra": .text("x")])
      #expect(await second.value["count"]?.int == 1)
      #expect(try await second.text(atPath: "$.extra")?.string == "x")
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("an initialRoot that cannot be set is refused before anything is sent")
  func invalidShape() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let doc = Document(key: "invalid-shape")
      do {
        try await a.attach(doc, initialRoot: ["ok": .text(), "bad": ["a.b": 1]])
        Issue.record("an initialRoot with a dotted key was accepted")
      } catch let error as YorkieError {
        #expect(error.code == .invalidKey)
      }
      do {
        try await a.attach(Document(key: "invalid-number"), initialRoot: ["n": .value(.double(.nan))])
        Issue.record("an initialRoot with NaN was accepted")
      } catch let error as YorkieError {
        #expect(error.code == .invalidNumber)
      }
      #expect(await doc.status == .detached)
      #expect(await a.has("invalid-shape") == false)
      #expect(try await serverJSON(server, "invalid-shape") == nil)
      // The same document attaches with a valid shape afterwards.
      try await a.attach(doc, initialRoot: ["ok": .text("fine")])
      #expect(await doc.toSortedJSON() == #"{"ok":[{"val":"fine"}]}"#)
      try await a.deactivate()
    }
  }

  @Test("two first attaches at the same moment: every client's word ends in the document or in an overwrite notice it got")
  func racingFirstAttachesLoseNothingSilently() async throws {
    try await withServer { url, server in
      var replaced = 0
      for round in 0..<4 {
        let key = "race-\(round)"
        let clients = [try await activatedClient(url, key: "a\(round)"), try await activatedClient(url, key: "b\(round)")]
        let docs = [Document(key: key), Document(key: key)]
        let recorders = await [EventRecorder(docs[0].events()), EventRecorder(docs[1].events())]
        let words = ["alpha\(round)", "beta\(round)"]
        try await withThrowingTaskGroup(of: Void.self) { group in
          for index in 0..<2 {
            let (client, doc, word) = (clients[index], docs[index], words[index])
            group.addTask {
              try await client.attach(doc, initialRoot: ["note": .text()])
              try await doc.update { root, _ in try root.text("note")?.edit(0, 0, word) }
              try await client.waitUntilAcknowledged(doc)
            }
          }
          try await group.waitForAll()
        }
        for index in 0..<2 { try await clients[index].sync(docs[index]) }
        let final = await docs[0].toSortedJSON()
        #expect(final == (await docs[1].toSortedJSON()))
        #expect(final == (try await serverJSON(server, key)))
        let note = try await docs[0].text(atPath: "$.note")?.string ?? ""
        for index in 0..<2 where !note.contains(words[index]) {
          replaced += 1
          let told = await recorders[index].waitFor { event in
            guard case .overwritten(let notice) = event else { return false }
            return notice.path == "$.note" && notice.lostContent.jsonString.contains(words[index])
          }
          #expect(told, "round \(round): \(words[index]) vanished from \(note) without an overwrite notice")
        }
        for client in clients { try await client.deactivate() }
      }
      print("InitialRootTests race: \(replaced) of 8 words replaced by a concurrent first attach, each reported")
    }
  }

  @Test("after detach, deactivate or close a document refuses updates with documentDetached and still reads")
  func endedAttachmentRefusesEdits() async throws {
    try await withServer { url, _ in
      let client = try await activatedClient(url, key: "a")
      let detached = Document(key: "ended-1")
      try await client.attach(detached, initialRoot: ["n": 1])
      try await client.detach(detached)
      let deactivated = Document(key: "ended-2")
      try await client.attach(deactivated, initialRoot: ["n": 2])
      let statuses = EventRecorder(await deactivated.events())
      try await client.deactivate()
      #expect(await statuses.waitFor { $0 == .statusChanged(.detached) })
      let closer = try await activatedClient(url, key: "b")
      let closed = Document(key: "ended-3")
      try await closer.attach(closed, initialRoot: ["n": 3])
      await closer.close()
      for (doc, expected) in [(detached, 1), (deactivated, 2), (closed, 3)] {
        #expect(await doc.status == .detached)
        do {
          try await doc.update { root, _ in root["lost"] = true }
          Issue.record("\(doc.key): an update after the attachment ended was applied")
        } catch let error as YorkieError {
          #expect(error.code == .documentDetached)
          #expect(error.message.contains(doc.key))
        }
        #expect(await doc.value["n"]?.int == expected)
        #expect(await doc.value["lost"] == nil)
      }
      // A new Document with the key attaches and edits as usual.
      let again = try await activatedClient(url, key: "c")
      let fresh = Document(key: "ended-1")
      try await again.attach(fresh)
      try await fresh.update { root, _ in root["more"] = true }
      #expect(await fresh.toSortedJSON() == #"{"more":true,"n":1}"#)
      try await again.deactivate()
    }
  }
}
