import CRDT
import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Documents kept in a directory store (`ClientOptions.storage`) across client restarts,
/// against the in-process server over real HTTP: resumption from the stored checkpoint,
/// offline edits that reach the server exactly once, recovery when the server no longer has the
/// attachment, and damage that is reported and healed by the server.
@Suite("Client: stored documents survive restarts and resume from their checkpoint")
struct ResumeTests {
  /// A new empty folder.
  static func folder(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
  }

  /// A client keeping its documents in `folder` (not activated).
  static func storedClient(_ url: URL, _ folder: URL, durability: DocumentStorage.Durability = .perUpdate) -> Client {
    Client(url, options: ClientOptions(key: "stored", storage: .directory(folder, durability: durability)))
  }

  /// The text of a paragraph numbered `index`.
  static func paragraph(_ index: Int) -> String {
    "paragraph \(index): " + String(repeating: "lorem ipsum ", count: 8) + "\n"
  }

  @Test("a restarted client resumes without ActivateClient or AttachDocument, shows the stored content at once, and receives only the changes made since")
  func resume() async throws {
    let calls = LingerTests.CallCounter()
    let folder = Self.folder("resume")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer(calls.configuration()) { url, server in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let firstID = await first.id
      let doc = Document(key: "resume-doc")
      try await first.attach(doc)
      try await doc.update { root, _ in _ = root.setNewText("body") }
      for index in 0..<60 {
        try await doc.update { root, _ in
          let text = try #require(root.text("body"))
          try text.edit(text.length, text.length, Self.paragraph(index))
        }
      }
      try await first.waitUntilAcknowledged(doc)
      let stored = await doc.toSortedJSON()
      await first.close()
      #expect(await doc.status == .detached)

      // A peer edits while the first client is away.
      let peer = try await activatedClient(url, key: "peer")
      let peerDoc = Document(key: "resume-doc")
      try await peer.attach(peerDoc, syncMode: .manual)
      try await peerDoc.update { root, _ in try root.text("body")?.edit(0, 0, "peer was here. ") }
      try await peer.sync(peerDoc)
      try await peer.deactivate()
      let activations = calls.count("ActivateClient")
      let attaches = calls.count("AttachDocument")

      let second = Self.storedClient(url, folder)
      try await second.activate()
      #expect(await second.id == firstID)
      let resumed = Document(key: "resume-doc")
      try await second.attach(resumed, syncMode: .manual)
      // Shown before the network answered (manual mode: nothing was pulled yet).
      #expect(await resumed.status == .attached)
      #expect(await resumed.toSortedJSON() == stored)
      let before = second.receivedBodyBytes
      try await second.sync(resumed)
      let resumeBytes = second.receivedBodyBytes - before
      #expect(calls.count("ActivateClient") == activations)
      #expect(calls.count("AttachDocument") == attaches)

      // What a fresh attach of the same document receives.
      let fresh = try await activatedClient(url, key: "fresh")
      let freshDoc = Document(key: "resume-doc")
      let freshBefore = fresh.receivedBodyBytes
      try await fresh.attach(freshDoc, syncMode: .manual)
      let freshBytes = fresh.receivedBodyBytes - freshBefore
      #expect(resumeBytes * 10 < freshBytes, "resume received \(resumeBytes) bytes, a fresh attach \(freshBytes)")
      let expected = try #require(try await serverJSON(server, "resume-doc"))
      #expect(await resumed.toSortedJSON() == expected)
      #expect(await freshDoc.toSortedJSON() == expected)
      #expect(expected.hasPrefix(#"{"body":[{"val":"peer was here. "},{"val":"paragraph 0: "#))
      try await fresh.deactivate()
      try await second.deactivate()
    }
  }

  @Test("edits made while the server is down are stored, survive a restart, and count once even when pushed twice (a lost acknowledgement)")
  func offlineEditsExactlyOnce() async throws {
    let data = Self.folder("offline-server")
    let folder = Self.folder("offline-store")
    let copy = Self.folder("offline-copy")
    defer { for url in [data, folder, copy] { try? FileManager.default.removeItem(at: url) } }
    var configuration = YorkieDevServer.Configuration(dataDirectory: data)
    let server = YorkieDevServer(configuration: configuration)
    let url = try server.start()
    configuration.port = url.port ?? 0

    let first = Self.storedClient(url, folder)
    try await first.activate()
    let doc = Document(key: "offline-doc")
    try await first.attach(doc)
    try await doc.update { root, _ in _ = root.setNewCounter("n", .int(0)) }
    try await first.waitUntilAcknowledged(doc)
    server.stop()
    for _ in 0..<20 {
      try await doc.update { root, _ in _ = root.counter("n")?.increase(by: 1) }
    }
    try await doc.update { root, _ in root["note"] = "written offline" }
    await first.close()
    // The store as it is now, with the offline edits pending: restarting from it later is a
    // client whose acknowledgement was lost in a crash.
    try FileManager.default.copyItem(at: folder, to: copy)

    let restarted = YorkieDevServer(configuration: configuration)
    _ = try restarted.start()
    defer { restarted.stop() }
    let second = Self.storedClient(url, folder)
    try await second.activate()
    let resumed = Document(key: "offline-doc")
    try await second.attach(resumed)
    try await second.sync(resumed)
    try await second.waitUntilAcknowledged(resumed)
    #expect(await resumed.toSortedJSON() == #"{"n":20,"note":"written offline"}"#)
    #expect(try await serverJSON(restarted, "offline-doc") == #"{"n":20,"note":"written offline"}"#)
    await second.close()

    let third = Self.storedClient(url, copy)
    try await third.activate()
    let again = Document(key: "offline-doc")
    try await third.attach(again)
    #expect(await again.hasLocalChanges)
    try await third.sync(again)
    try await third.waitUntilAcknowledged(again)
    #expect(await again.hasLocalChanges == false)
    #expect(try await serverJSON(restarted, "offline-doc") == #"{"n":20,"note":"written offline"}"#)
    try await again.update { root, _ in _ = root.counter("n")?.increase(by: 1) }
    try await third.waitUntilAcknowledged(again)
    #expect(try await serverJSON(restarted, "offline-doc") == #"{"n":21,"note":"written offline"}"#)
    try await third.deactivate()
  }

  @Test("a document attached while the server is unreachable is stored at once, survives a restart, and is attached with its edits when the server is back")
  func attachWhileUnreachable() async throws {
    let data = Self.folder("unreachable-server")
    let folder = Self.folder("unreachable-store")
    defer { for url in [data, folder] { try? FileManager.default.removeItem(at: url) } }
    var configuration = YorkieDevServer.Configuration(dataDirectory: data)
    let server = YorkieDevServer(configuration: configuration)
    let url = try server.start()
    configuration.port = url.port ?? 0
    var options = ClientOptions(key: "stored", storage: .directory(folder))
    options.reconnect = ReconnectPolicy(base: 0.05, cap: 0.2)
    let first = Client(url, options: options)
    try await first.activate()
    server.stop()

    let doc = Document(key: "later-doc")
    try await first.attach(doc, initialRoot: ["title": "untitled"])
    #expect(await doc.status == .attached)
    try await doc.update { root, _ in root["note"] = "typed on a train" }
    #expect(await doc.toSortedJSON() == #"{"note":"typed on a train"}"#)
    await first.close()

    // Restarted while the server is still down: the document is there at once.
    let second = Client(url, options: options)
    try await second.activate()
    let again = Document(key: "later-doc")
    try await second.attach(again, initialRoot: ["title": "untitled"])
    #expect(await again.toSortedJSON() == #"{"note":"typed on a train"}"#)
    try await again.update { root, _ in root["more"] = 2 }

    let restarted = YorkieDevServer(configuration: configuration)
    _ = try restarted.start()
    defer { restarted.stop() }
    #expect(await eventually { (try? await second.sync(again)) != nil })
    try await second.waitUntilAcknowledged(again)
    let expected = #"{"more":2,"note":"typed on a train","title":"untitled"}"#
    #expect(await eventually { await again.toSortedJSON() == expected })
    #expect(await eventually { (try? await serverJSON(restarted, "later-doc")) == expected })
    let peer = try await activatedClient(url, key: "peer")
    let peerDoc = Document(key: "later-doc")
    try await peer.attach(peerDoc)
    #expect(await peerDoc.toSortedJSON() == expected)
    try await peer.deactivate()
    try await second.deactivate()
  }

  @Test("a stored state that went back (an older copy) is caught by the first answer, reported and attached afresh: nothing the server has is lost")
  func storeWentBack() async throws {
    let folder = Self.folder("went-back")
    let older = Self.folder("went-back-older")
    defer { for url in [folder, older] { try? FileManager.default.removeItem(at: url) } }
    try await withServer { url, server in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let doc = Document(key: "went-back-doc")
      try await first.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["a"] = 1 }
      try await first.sync(doc)
      await first.close()
      try FileManager.default.copyItem(at: folder, to: older)

      // The same client goes on: two more changes the server acknowledges.
      let same = Self.storedClient(url, folder)
      try await same.activate()
      let resumed = Document(key: "went-back-doc")
      try await same.attach(resumed, syncMode: .manual)
      try await resumed.update { root, _ in root["b"] = 2 }
      try await resumed.update { root, _ in root["c"] = 3 }
      try await same.sync(resumed)
      await same.close()

      // Restarted from the older store: its next change would reuse a client sequence the
      // server has, and it would never see b and c. The first answer says so.
      let stale = Self.storedClient(url, older)
      let events = EventRecorder(stale.events())
      try await stale.activate()
      let again = Document(key: "went-back-doc")
      try await stale.attach(again, syncMode: .manual)
      try await again.update { root, _ in root["offline"] = 4 }
      try? await stale.sync(again)
      #expect(
        await events.waitFor {
          guard case .documentReset(let notice) = $0 else { return false }
          return notice.reason.code == .actorConflict && notice.lastContent == #"{"a":1,"offline":4}"#
        }, "\(events.recorded)")
      let expected = #"{"a":1,"b":2,"c":3}"#
      #expect(await eventually { await again.toSortedJSON() == expected })
      try await again.update { root, _ in root["after"] = 5 }
      try await stale.sync(again)
      #expect(try await serverJSON(server, "went-back-doc") == #"{"a":1,"after":5,"b":2,"c":3}"#)
      try await stale.deactivate()
    }
  }

  @Test("a document removed on the server while the client was away is reported with its unsent edits and attached afresh")
  func removedWhileAway() async throws {
    let folder = Self.folder("removed")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, server in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let doc = Document(key: "removed-doc")
      try await first.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["synced"] = true }
      try await first.sync(doc)
      try await doc.update { root, _ in root["unsent"] = "draft" }
      await first.close()

      let peer = try await activatedClient(url, key: "peer")
      let peerDoc = Document(key: "removed-doc")
      try await peer.attach(peerDoc, syncMode: .manual)
      try await peer.remove(peerDoc)

      let second = Self.storedClient(url, folder)
      let events = EventRecorder(second.events())
      try await second.activate()
      let resumed = Document(key: "removed-doc")
      try await second.attach(resumed, syncMode: .manual)
      #expect(await resumed.toSortedJSON() == #"{"synced":true,"unsent":"draft"}"#)
      try? await second.sync(resumed)
      #expect(
        await events.waitFor {
          guard case .documentReset(let notice) = $0 else { return false }
          // The removed document acknowledged the draft as it received it: the count may be 0,
          // the content still holds it.
          return notice.document == "removed-doc" && notice.reason.code == .documentRemoved && notice.lastContent.contains("draft")
        }, "\(events.recorded)")
      #expect(
        await eventually {
          let attached = await second.has("removed-doc")
          let status = await resumed.status
          return attached && status == .attached
        })
      // A new document with the key, empty on the server; the same Document shows it.
      #expect(await resumed.toSortedJSON() == "{}")
      try await resumed.update { root, _ in root["after"] = 1 }
      try await second.sync(resumed)
      #expect(try await serverJSON(server, "removed-doc") == #"{"after":1}"#)
      #expect(!events.recorded.contains { if case .stopped = $0 { return true } else { return false } })
      try await second.deactivate()
      try await peer.deactivate()
    }
  }

  @Test("an attachment that ended meanwhile (detached through a copy of the store) is reported and attached afresh; the edits the server had stay")
  func detachedMeanwhile() async throws {
    let folder = Self.folder("ended")
    let copy = Self.folder("ended-copy")
    defer { for url in [folder, copy] { try? FileManager.default.removeItem(at: url) } }
    try await withServer { url, server in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let doc = Document(key: "ended-doc")
      try await first.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["kept"] = 1 }
      try await first.sync(doc)
      try await doc.update { root, _ in root["draft"] = "unsent" }
      await first.close()
      try FileManager.default.copyItem(at: folder, to: copy)

      // The same identity (the original store) resumes and detaches: the attachment ends.
      let same = Self.storedClient(url, folder)
      try await same.activate()
      let resumed = Document(key: "ended-doc")
      try await same.attach(resumed, syncMode: .manual)
      try await same.detach(resumed)
      await same.close()
      #expect(try await serverJSON(server, "ended-doc") == #"{"draft":"unsent","kept":1}"#)

      // The copy still believes it is attached.
      let stale = Self.storedClient(url, copy)
      let events = EventRecorder(stale.events())
      try await stale.activate()
      let again = Document(key: "ended-doc")
      try await stale.attach(again, syncMode: .manual)
      try? await stale.sync(again)
      #expect(
        await events.waitFor {
          guard case .documentReset(let notice) = $0 else { return false }
          return notice.reason.code == .documentNotAttached && notice.unsentChanges == 1 && notice.lastContent.contains("unsent")
        }, "\(events.recorded)")
      #expect(
        await eventually {
          let attached = await stale.has("ended-doc")
          let content = await again.toSortedJSON()
          return attached && content == #"{"draft":"unsent","kept":1}"#
        })
      try await again.update { root, _ in root["after"] = true }
      try await stale.sync(again)
      #expect(try await serverJSON(server, "ended-doc") == #"{"after":true,"draft":"unsent","kept":1}"#)
      try await stale.deactivate()
    }
  }

  @Test("a server that forgot the client (restarted without its data): the client activates anew and attaches afresh")
  func forgottenClient() async throws {
    let folder = Self.folder("forgotten")
    defer { try? FileManager.default.removeItem(at: folder) }
    var firstID: ActorID?
    try await withServer { url, _ in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      firstID = await first.id
      let doc = Document(key: "forgotten-doc")
      try await first.attach(doc, syncMode: .manual)
      try await doc.update { root, _ in root["before"] = 1 }
      try await first.sync(doc)
      try await doc.update { root, _ in root["offline"] = 2 }
      await first.close()
    }
    // A new server (in memory, empty) on another port.
    try await withServer { url, server in
      let second = Self.storedClient(url, folder)
      let events = EventRecorder(second.events())
      try await second.activate()
      #expect(await second.id == firstID)
      let doc = Document(key: "forgotten-doc")
      try await second.attach(doc, syncMode: .manual)
      #expect(await doc.toSortedJSON() == #"{"before":1,"offline":2}"#)
      try? await second.sync(doc)
      #expect(
        await events.waitFor {
          guard case .documentReset(let notice) = $0 else { return false }
          return notice.unsentChanges == 1 && notice.lastContent == #"{"before":1,"offline":2}"#
        }, "\(events.recorded)")
      #expect(
        await eventually {
          let attached = await second.has("forgotten-doc")
          let id = await second.id
          return attached && id != nil && id != firstID
        })
      #expect(await doc.toSortedJSON() == "{}")
      try await doc.update { root, _ in root["again"] = 3 }
      try await second.sync(doc)
      #expect(try await serverJSON(server, "forgotten-doc") == #"{"again":3}"#)
      try await second.deactivate()
    }
  }

  /// The files a stored client leaves, by kind.
  enum StoredFile: String, CaseIterable, CustomTestStringConvertible {
    case newestGeneration, previousGeneration, identity
    var testDescription: String { rawValue }

    /// The file of this kind in `folder`.
    func url(in folder: URL) throws -> URL {
      if self == .identity { return folder.appendingPathComponent("identity.log") }
      let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("d-") })
      let documentFolder = folder.appendingPathComponent(name)
      let logs = try FileManager.default.contentsOfDirectory(atPath: documentFolder.path).filter { $0.hasSuffix(".log") && $0 != "seal.log" }.sorted()
      try #require(logs.count >= 2, "two generations expected: \(logs)")
      return documentFolder.appendingPathComponent(self == .newestGeneration ? logs[logs.count - 1] : logs[logs.count - 2])
    }
  }

  /// Where the records of a log file start (8: after the magic) and end.
  static func recordBoundaries(_ bytes: [UInt8]) -> Set<Int> {
    var boundaries: Set<Int> = [8]
    var offset = 8
    while offset + 8 <= bytes.count {
      let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
      offset += 8 + length
      boundaries.insert(offset)
    }
    return boundaries
  }

  @Test("a byte flipped or a file cut at a random offset of any stored file: the load notices, reports it, and the document converges with the server", arguments: StoredFile.allCases, [false, true])
  func damagedStore(file kind: StoredFile, truncates: Bool) async throws {
    let seed = UInt64.random(in: 0...UInt64(UInt32.max))
    print("ResumeTests.damagedStore seed \(seed)")
    var random = SplitMix64(seed: seed)
    let folder = Self.folder("damaged")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, server in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let doc = Document(key: "damaged-doc")
      try await first.attach(doc)
      // Enough that the history outgrows its base: a second generation is written.
      for index in 0..<40 {
        try await doc.update { root, _ in root["k\(index % 7)"] = .string("\(index) " + String(repeating: "x", count: 8_000)) }
        try await first.waitUntilAcknowledged(doc)
      }
      await first.close()
      let file = try kind.url(in: folder)
      var bytes = try [UInt8](Data(contentsOf: file))
      let boundaries = Self.recordBoundaries(bytes)
      var offset = Int.random(in: 0..<bytes.count, using: &random)
      if truncates {
        // A cut between two records is an older state no checksum can tell from a newer one
        // (the seal catches it: StoreTailTests); what is tested is damage and torn tails, so
        // the cut falls inside a record.
        while boundaries.contains(offset) { offset = Int.random(in: 0..<bytes.count, using: &random) }
        bytes.removeSubrange(offset...)
      } else {
        bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
      }
      try Data(bytes).write(to: file)
      let context = "seed \(seed): \(truncates ? "cut" : "flip") at \(offset) of \(file.lastPathComponent)"

      let peer = try await activatedClient(url, key: "peer")
      let peerDoc = Document(key: "damaged-doc")
      try await peer.attach(peerDoc)
      try await peerDoc.update { root, _ in root["peer"] = true }
      try await peer.waitUntilAcknowledged(peerDoc)

      let second = Self.storedClient(url, folder)
      let events = EventRecorder(second.events())
      try await second.activate()
      let resumed = Document(key: "damaged-doc")
      try await second.attach(resumed)
      try await second.sync(resumed)
      if kind != .previousGeneration {
        // (A damaged previous generation is not even read while the newest one is whole.)
        #expect(
          await events.waitFor {
            if case .storeDamaged(let notice) = $0 { return notice.file == file.path }
            return false
          }, "\(context): \(events.recorded)")
      }
      let expected = try #require(try await serverJSON(server, "damaged-doc"))
      #expect(expected.contains(#""peer":true"#), "\(context)")
      #expect(await eventually { await resumed.toSortedJSON() == expected }, "\(context)")
      try await resumed.update { root, _ in root["healed"] = true }
      try await second.waitUntilAcknowledged(resumed)
      #expect(await eventually { await peerDoc.toSortedJSON() == resumed.toSortedJSON() }, "\(context)")
      #expect(try await serverJSON(server, "damaged-doc")?.contains(#""healed":true"#) == true, "\(context)")
      try await second.deactivate()
      try await peer.deactivate()
    }
  }

  @Test("batched durability: updates return before the disk, everything is stored by the push, and a restart resumes it")
  func batched() async throws {
    let folder = Self.folder("batched")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, server in
      let first = Self.storedClient(url, folder, durability: .batched(window: 0.05))
      try await first.activate()
      let doc = Document(key: "batched-doc")
      try await first.attach(doc, syncMode: .manual)
      for index in 0..<50 {
        try await doc.update { root, _ in root["k"] = .integer(Int32(index)) }
      }
      await first.close()
      let second = Self.storedClient(url, folder, durability: .batched(window: 0.05))
      try await second.activate()
      let resumed = Document(key: "batched-doc")
      try await second.attach(resumed, syncMode: .manual)
      #expect(await resumed.toSortedJSON() == #"{"k":49}"#)
      try await second.sync(resumed)
      #expect(try await serverJSON(server, "batched-doc") == #"{"k":49}"#)
      try await second.deactivate()
    }
  }

  @Test("one directory, one client: a second client on it cannot activate")
  func oneClientPerDirectory() async throws {
    let folder = Self.folder("exclusive")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, _ in
      let first = Self.storedClient(url, folder)
      try await first.activate()
      let second = Self.storedClient(url, folder)
      await #expect(throws: YorkieError.self) { try await second.activate() }
      #expect(await second.status == .deactivated)
      try await first.deactivate()
      await first.close()
      try await second.activate()
      #expect(await second.status == .activated)
      let doc = Document(key: "exclusive-doc")
      try await second.attach(doc)
      try await second.deactivate()
      // Its attachment ended: an edit would reach no one, and is refused (nothing recorded).
      do {
        try await doc.update { root, _ in root["after"] = "deactivate" }
        Issue.record("an update after deactivate was applied")
      } catch let error as YorkieError {
        #expect(error.code == .documentDetached)
      }
    }
  }

  @Test("an update whose change cannot be stored fails with storageFailed and changes nothing")
  func storeRefusesWrite() async throws {
    let folder = Self.folder("refusing")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, server in
      let client = Self.storedClient(url, folder)
      try await client.activate()
      let doc = Document(key: "refusing-doc")
      try await client.attach(doc)
      try await doc.update { root, _ in root["kept"] = 1 }
      try await client.waitUntilAcknowledged(doc)
      // The store loses its files (as a disk taken away would): appends fail.
      await client.store?.close()
      await #expect(throws: YorkieError.self) {
        try await doc.update { root, _ in
          root["lost"] = 2
          try root.setNewText("t").edit(0, 0, "never stored")
        }
      }
      do {
        try await doc.update { root, _ in root["lost"] = 3 }
        Issue.record("the update was applied without being stored")
      } catch let error as YorkieError {
        #expect(error.code == .storageFailed)
      }
      #expect(await doc.toSortedJSON() == #"{"kept":1}"#)
      #expect(await doc.hasLocalChanges == false)
      #expect(await doc.checkInvariants() == nil)
      // Syncing records the server's answer, which the store refuses too: the answer is not
      // applied, and the failure is retried (not a stop).
      let events = EventRecorder(client.events())
      await #expect(throws: YorkieError.self) { try await client.sync(doc) }
      #expect(await events.waitFor { if case .retrying(let notice) = $0 { return notice.error.code == .storageFailed } else { return false } })
      #expect(!events.recorded.contains { if case .stopped = $0 { return true } else { return false } })
      #expect(try await serverJSON(server, "refusing-doc") == #"{"kept":1}"#)
      try await client.deactivate()
    }
  }

  @Test("a client released without close() frees its directory; its documents stay editable")
  func releasedClient() async throws {
    let folder = Self.folder("released")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withServer { url, _ in
      let doc = Document(key: "released-doc")
      do {
        let first = Self.storedClient(url, folder)
        try await first.activate()
        try await first.attach(doc)
        try await doc.update { root, _ in root["k"] = 1 }
        try await first.waitUntilAcknowledged(doc)
      }
      let second = Self.storedClient(url, folder)
      #expect(await eventually { (try? await second.activate()) != nil })
      try await doc.update { root, _ in root["k"] = 2 }
      let resumed = Document(key: "released-doc")
      try await second.attach(resumed)
      try await second.sync(resumed)
      #expect(await resumed.toSortedJSON() == #"{"k":1}"#)
      try await second.deactivate()
    }
  }
}
