import Foundation
import Testing
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

@Suite("Client: activation, attach, realtime sync, detach, remove")
struct ClientBasicsTests {
  @Test("activate and deactivate change the status and say so")
  func activation() async throws {
    try await withServer { url, _ in
      let client = Client(url, options: ClientOptions(key: "ann"))
      let events = EventRecorder(client.events())
      #expect(await client.status == .deactivated)
      try await client.activate()
      #expect(await client.status == .activated)
      #expect(await client.id?.hex.count == 24)
      try await client.deactivate()
      #expect(await client.status == .deactivated)
      #expect(await client.id == nil)
      #expect(await events.waitFor { if case .statusChanged(.deactivated) = $0 { return true } else { return false } })
      let statuses = events.recorded.compactMap { event -> ClientStatus? in
        if case .statusChanged(let status) = event { return status } else { return nil }
      }
      #expect(statuses == [.activated, .deactivated])
    }
  }

  @Test("two clients in realtime converge on each other's edits without calling sync")
  func realtimeConvergence() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "notes")
      let docB = Document(key: "notes")
      try await a.attach(docA, initialRoot: ["title": "draft", "items": []])
      try await b.attach(docB, initialRoot: ["title": "ignored: a set it first"])
      #expect(await docB.toSortedJSON() == #"{"items":[],"title":"draft"}"#)

      try await docA.update { root, _ in try root.array("items")?.append("milk") }
      try await docB.update { root, _ in root["title"] = "groceries" }
      let expected = #"{"items":["milk"],"title":"groceries"}"#
      let converged = await eventually {
        let (jsonA, jsonB) = (await docA.toSortedJSON(), await docB.toSortedJSON())
        return jsonA == expected && jsonB == expected
      }
      let (jsonA, jsonB) = (await docA.toSortedJSON(), await docB.toSortedJSON())
      #expect(converged, "a: \(jsonA) b: \(jsonB)")
      try await a.deactivate()
      try await b.deactivate()
    }
  }

  @Test("waitUntilAcknowledged returns once the server has the update")
  func acknowledgement() async throws {
    try await withServer { url, server in
      let a = try await activatedClient(url, key: "a")
      let doc = Document(key: "ack-doc")
      try await a.attach(doc)
      for i in 0..<20 {
        try await doc.update { root, _ in root["n"] = .integer(Int32(i)) }
      }
      try await a.waitUntilAcknowledged(doc)
      #expect(await doc.hasLocalChanges == false)
      #expect(try await serverJSON(server, "ack-doc") == #"{"n":19}"#)
      try await a.deactivate()
    }
  }

  @Test("detach pushes pending changes and clears the presence; remove reaches other clients")
  func detachAndRemove() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "life")
      let docB = Document(key: "life")
      try await a.attach(docA, syncMode: .manual)
      try await b.attach(docB)
      try await docA.update { root, _ in root["pending"] = true }
      #expect(await docA.hasLocalChanges)
      try await a.detach(docA)
      #expect(await docA.status == .detached)
      #expect(await eventually { await docB.toSortedJSON() == #"{"pending":true}"# })
      #expect(await a.has("life") == false)

      let bEvents = EventRecorder(b.events())
      let docC = Document(key: "life")
      try await a.attach(docC)
      try await a.remove(docC)
      #expect(await docC.status == .removed)
      #expect(await eventually { await docB.status == .removed })
      #expect(await eventually { await b.has("life") == false }, "\(bEvents.recorded)")
    }
  }

  @Test("misuse is an error with a precise code, never a crash")
  func misuse() async throws {
    try await withServer { url, _ in
      let client = Client(url)
      let doc = Document(key: "doc-d")
      await #expect(throws: YorkieError.self) { try await client.attach(doc) }
      do {
        try await client.attach(doc)
      } catch let error as YorkieError {
        #expect(error.code == .clientNotActivated)
      }
      try await client.activate()
      do {
        try await client.detach(doc)
        Issue.record("detach of a document never attached succeeded")
      } catch let error as YorkieError {
        #expect(error.code == .documentNotAttached)
      }
      try await client.attach(doc)
      do {
        try await client.attach(Document(key: "doc-d"))
        Issue.record("a second attach of the key succeeded")
      } catch let error as YorkieError {
        #expect(error.code == .documentAlreadyAttached)
      }
      try await client.detach(doc)
      do {
        try await client.attach(doc)
        Issue.record("a detached document attached again")
      } catch let error as YorkieError {
        #expect(error.code == .documentAlreadyDetached)
      }
      try await client.deactivate()
    }
  }

  @Test("a consumer that never keeps up holds up neither syncing nor other consumers")
  func slowConsumer() async throws {
    try await withServer { url, _ in
      let a = try await activatedClient(url, key: "a")
      let b = try await activatedClient(url, key: "b")
      let docA = Document(key: "slow-consumer")
      let docB = Document(key: "slow-consumer")
      try await a.attach(docA)
      try await b.attach(docB)
      // One consumer of B's events and of B's client events takes a minute per event.
      let stuck = Task {
        for await _ in await docB.events() { try? await Task.sleep(nanoseconds: 60_000_000_000) }
      }
      let stuckClient = Task {
        for await _ in b.events() { try? await Task.sleep(nanoseconds: 60_000_000_000) }
      }
      defer {
        stuck.cancel()
        stuckClient.cancel()
      }
      let recorder = EventRecorder(await docB.events())
      for i in 0..<200 {
        try await docA.update { root, _ in root["n"] = .integer(Int32(i)) }
      }
      #expect(await eventually { await docB.toSortedJSON() == #"{"n":199}"# })
      let remote = { recorder.recorded.filter { if case .remoteChange = $0 { return true } else { return false } }.count }
      #expect(await eventually { remote() == 200 }, "\(remote()) of 200 remote changes seen by the prompt consumer")
      try await a.deactivate()
      try await b.deactivate()
    }
  }
}
