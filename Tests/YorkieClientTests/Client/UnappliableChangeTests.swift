import CRDT
import Foundation
import Testing
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

/// A change the server sends that this replica cannot apply (a peer's SDK anchored it on a
/// piece this replica already purged, as Yorkie's Go SDK does with appends after a tombstone):
/// the sync stops with a local apply failure (not a refusal by the server), the notice offers
/// to attach afresh, and detach still ends the attachment.
@Suite("Client: a change from the server this replica cannot apply")
struct UnappliableChangeTests {
  static let key = "unappliable"

  /// The victim's client and document, and the peer whose change it cannot apply.
  struct Setup {
    var client: Client
    var document: Document
    var events: EventRecorder<ClientEvent>
    var peer: TransportReplica
  }

  /// The victim types "abc" and deletes it; a peer (raw RPCs) types inside "abc" before it
  /// hears of the deletion, but tells the server it has seen the deletion before it sends its
  /// edit; the victim purges the deleted text meanwhile; then its next sync pulls the edit,
  /// which names a piece it no longer has. An edit of the victim is pending then.
  static func strand(_ url: URL) async throws -> Setup {
    let client = try await activatedClient(url, key: "victim")
    let events = EventRecorder(client.events())
    let document = Document(key: key)
    try await client.attach(document, syncMode: .manual)
    try await document.update { root, _ in try root.setNewText("t").edit(0, 0, "abc") }
    try await client.sync(document)
    let peer = try await TransportReplica(url: url, key: key, clientKey: "peer")
    try await peer.attach()
    try await peer.document.update { root, _ in _ = try root.text("t")!.edit(1, 1, "x") }
    try await document.update { root, _ in try root.text("t")!.delete(0, 3) }
    try await client.sync(document)
    // The peer's vector claims the deletion while its edit is not sent: no change, a vector.
    let claim = ChangePack(
      key: key, checkpoint: await peer.document.checkpoint, changes: [], versionVector: await document.versionVector, role: .request)
    let _: PushPullChangesResponse = try await peer.transport.unary(
      "PushPullChanges", PushPullChangesRequest(clientID: peer.clientID, documentID: peer.documentID, changePack: WireChangePack(claim)),
      shardKey: key)
    try await client.sync(document)  // the minimum now covers the deletion: the text's pieces go
    let edit = try await peer.document.createChangePack()
    let _: PushPullChangesResponse = try await peer.transport.unary(
      "PushPullChanges", PushPullChangesRequest(clientID: peer.clientID, documentID: peer.documentID, changePack: WireChangePack(edit)),
      shardKey: key)
    try await document.update { root, _ in root["unsent"] = .integer(1) }
    return Setup(client: client, document: document, events: events, peer: peer)
  }

  /// The stop notice recorded, if any.
  static func stopNotice(_ events: EventRecorder<ClientEvent>) -> StopNotice? {
    for case .stopped(let notice) in events.recorded { return notice }
    return nil
  }

  @Test("the sync stops with a local apply failure; detach still ends the attachment, and the key can be attached again")
  func detachAfterApplyFailure() async throws {
    try await withServer { url, server in
      let setup = try await Self.strand(url)
      let failure = await #expect(throws: YorkieError.self) { try await setup.client.sync(setup.document) }
      #expect(failure?.code == .changeNotApplicable, "\(String(describing: failure))")
      #expect(await setup.events.waitFor { if case .stopped = $0 { return true } else { return false } })
      let notice = try #require(Self.stopNotice(setup.events))
      #expect(notice.error.code == .changeNotApplicable)
      #expect(notice.error.message.contains("this replica could not apply"), "\(notice)")
      #expect(!notice.remedy.contains("the server refused"), "\(notice)")
      #expect(notice.recovery == .reattach)
      try await setup.client.detach(setup.document)
      #expect(await setup.document.status == .detached)
      // The server ended the attachment: the same client attaches the key again, and sees
      // every change, the peer's included.
      let again = Document(key: Self.key)
      try await setup.client.attach(again, syncMode: .manual)
      #expect(try await again.text(atPath: "$.t")?.string == "x")
      #expect(try await again.value(atPath: "$.unsent") == .integer(1))
      #expect(try await serverJSON(server, Self.key) == (await again.toSortedJSON()))
      try await setup.client.deactivate()
    }
  }

  @Test("reattach attaches afresh from the server, reports the content and the unsent edit, and syncs again")
  func reattachAfterApplyFailure() async throws {
    try await withServer { url, server in
      let setup = try await Self.strand(url)
      await #expect(throws: YorkieError.self) { try await setup.client.sync(setup.document) }
      #expect(await setup.events.waitFor { if case .stopped = $0 { return true } else { return false } })
      #expect(Self.stopNotice(setup.events)?.recovery == .reattach)
      try await setup.client.reattach(setup.document)
      // The recorder reads the client's events on a task of its own: wait for the notice (a
      // loaded machine delivered it after `reattach` returned, and the read below found none).
      #expect(await setup.events.waitFor { if case .documentReset = $0 { return true } else { return false } })
      let reset = setup.events.recorded.compactMap { event -> DocumentResetNotice? in
        if case .documentReset(let notice) = event { return notice } else { return nil }
      }
      #expect(reset.count == 1)
      #expect(reset.first?.reason.code == .changeNotApplicable)
      #expect(reset.first?.unsentChanges == 1)
      #expect(reset.first?.lastContent.contains("\"unsent\":1") == true, "\(reset)")
      // The same Document shows the server's document (the unsent edit had reached it with
      // the failed sync's push) and syncs again.
      #expect(await setup.document.status == .attached)
      #expect(try await setup.document.text(atPath: "$.t")?.string == "x")
      #expect(try await setup.document.value(atPath: "$.unsent") == .integer(1))
      try await setup.document.update { root, _ in root["after"] = .bool(true) }
      try await setup.client.sync(setup.document)
      #expect(try await serverJSON(server, Self.key) == (await setup.document.toSortedJSON()))
      // A document whose sync runs has nothing to reattach.
      let refusal = await #expect(throws: YorkieError.self) { try await setup.client.reattach(setup.document) }
      #expect(refusal?.code == .documentAlreadyAttached)
      try await setup.client.deactivate()
    }
  }
}
