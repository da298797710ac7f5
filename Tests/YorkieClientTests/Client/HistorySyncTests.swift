import CRDT
import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Undo and redo through real clients and the in-process server over HTTP: an undo is a local
/// change like any other, so it reaches peers and the server, converges with a peer's concurrent
/// edit, and, in a directory store, outlives the client that made it (the history itself does
/// not: it lives as long as the `Document`).
@Suite("Client: undo and redo sync through the server")
struct HistorySyncTests {
  @Test("an undo and a redo reach a realtime peer and the server; the peer's concurrent edit stays")
  func undoReachesPeers() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "history-sync")
      let docB = Document(key: "history-sync")
      try await a.attach(docA)
      try await b.attach(docB)
      try await docA.update { root, _ in
        _ = try root.setNewText("note").edit(0, 0, "Hello world")
        _ = root.setNewCounter("likes", .int(0))
      }
      try await docA.update { root, _ in
        try root.text("note")?.setStyle(0, 5, ["bold": true])
        root.counter("likes")?.increase(by: 3)
        try root.text("note")?.delete(5, 11)
        root["title"] = "Draft"
      }
      let edited = #"{"likes":3,"note":[{"attrs":{"bold":true},"val":"Hello"}],"title":"Draft"}"#
      #expect(await eventually { await docB.toSortedJSON() == edited })
      // The peer types meanwhile; the undo must keep it.
      try await docB.update { root, _ in _ = try root.text("note")?.edit(0, 0, "¡") }
      #expect(await eventually { await docA.toSortedJSON().contains("¡") })

      try await docA.undo()
      let undone = #"{"likes":0,"note":[{"val":"¡"},{"val":"Hello"},{"val":" world"}]}"#
      #expect(await docA.toSortedJSON() == undone)
      #expect(await eventually { await docB.toSortedJSON() == undone })
      try await a.waitUntilAcknowledged(docA)
      #expect(try await serverJSON(server, "history-sync") == undone)

      try await docA.redo()
      let redone = #"{"likes":3,"note":[{"val":"¡"},{"attrs":{"bold":true},"val":"Hello"}],"title":"Draft"}"#
      #expect(await docA.toSortedJSON() == redone)
      #expect(await eventually { await docB.toSortedJSON() == redone })
      try await a.waitUntilAcknowledged(docA)
      #expect(try await serverJSON(server, "history-sync") == redone)
      // The peer never had anything to undo: its edit was not this replica's to revert.
      #expect(await docB.canUndo == true)
      #expect(await docA.canUndo == true)
      #expect(await docA.canRedo == false)
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("an undo made offline is stored, survives the client, and reaches the server once it syncs; the history does not survive")
  func offlineUndoIsStored() async throws {
    let folder = ResumeTests.folder("history-store")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, server in
      let first = ResumeTests.storedClient(url, folder)
      try await first.activate()
      let doc = Document(key: "history-store")
      try await first.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["todos"] = ["milk", "eggs"] }
      try await first.sync(doc)
      try await doc.update { root, _ in try root.array("todos")?.remove(at: 0) }
      try await doc.undo()
      #expect(await doc.toSortedJSON() == #"{"todos":["milk","eggs"]}"#)
      // Neither the removal nor its undo reached the server.
      #expect(try await serverJSON(server, "history-store") == #"{"todos":["milk","eggs"]}"#)
      await first.close()

      let second = ResumeTests.storedClient(url, folder)
      try await second.activate()
      let resumed = Document(key: "history-store")
      try await second.attach(resumed, syncMode: .manual)
      #expect(await resumed.toSortedJSON() == #"{"todos":["milk","eggs"]}"#)
      // The history lived in the first Document: nothing to undo or redo in this one.
      #expect(await resumed.canUndo == false)
      #expect(await resumed.canRedo == false)
      try await second.sync(resumed)
      #expect(try await serverJSON(server, "history-store") == #"{"todos":["milk","eggs"]}"#)
      // A fresh peer sees the same: the removal and the undo both arrived.
      let peer = try await activatedClient(url, key: "peer")
      let peerDoc = Document(key: "history-store")
      try await peer.attach(peerDoc, syncMode: .manual)
      #expect(await peerDoc.toSortedJSON() == #"{"todos":["milk","eggs"]}"#)
      try await peer.deactivate()
      try await second.deactivate()
    }
  }
}
