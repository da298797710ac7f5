import CRDT
import Foundation
import Testing
import YorkieProtocol
@testable import YorkieServer

/// The materialized-document cache changes no byte the server sends or stores: two services
/// with the same seeds, one keeping materialized documents and one not, get the same requests
/// and must give the same answers and store the same snapshots.
@Suite("Materialized documents")
struct MaterializedDocumentsTests {
  /// A service with small snapshot settings, seeded ids and a fixed clock.
  static func service(budget: Int, threshold: Int64 = 10, interval: Int64 = 7) -> YorkieService {
    var settings = ServiceSettings()
    settings.snapshotThreshold = threshold
    settings.snapshotInterval = interval
    settings.materializedDocumentsBudget = budget
    let ids = ResourceIDGenerator(random: SplitMix64(seed: 0xCAC4E), now: { 1_700_000_000 })
    return YorkieService(state: ServiceState(settings: settings, ids: ids), now: { 100 })
  }

  /// The cached and the uncached service, driven in lockstep.
  struct Twins {
    let cached: YorkieService
    let plain: YorkieService
    let context = RequestContext(project: .default)

    /// Waits until `service` stores no snapshot in the background any more.
    static func settle(_ service: YorkieService) async {
      while service.isStoringSnapshots { try? await Task.sleep(nanoseconds: 200_000) }
    }

    /// Every document's stored snapshot.
    static func snapshots(_ service: YorkieService) -> [ResourceID: [UInt8]] {
      service.state.withLock { state in state.documents.compactMapValues { $0.snapshot?.data } }
    }

    /// Runs `call` on both services (each left to settle), checks that both answered the same
    /// bytes and stored the same snapshots, and returns the answer.
    func call<Response: WireMessage>(
      _ what: String, _ body: (YorkieService, RequestContext) async throws(ServiceError) -> Response
    ) async throws -> Response {
      let fromCached = try await body(cached, context)
      await Self.settle(cached)
      let fromPlain = try await body(plain, context)
      await Self.settle(plain)
      let sameAnswer = fromCached.jsonData == fromPlain.jsonData
      #expect(sameAnswer, "\(what): the answers differ")
      let sameSnapshots = Self.snapshots(cached) == Self.snapshots(plain)
      #expect(sameSnapshots, "\(what): the stored snapshots differ")
      return fromPlain
    }
  }

  /// A client of both services (the same ids on each), with its replica.
  final class Replica {
    let twins: Twins
    let clientID: String
    let key: String
    var document: Document
    var documentID = ""
    var attached = false

    init(_ twins: Twins, key: String, clientKey: String) async throws {
      self.twins = twins
      self.key = key
      let activated = try await twins.call("activate \(clientKey)") { service, context throws(ServiceError) in
        try await service.activateClient(ActivateClientRequest(clientKey: clientKey), context: context)
      }
      clientID = activated.clientID
      document = Document(key: key)
      try await document.setActor(ActorID(hex: clientID))
    }

    func apply(_ pack: WireChangePack?) async throws {
      try await document.applyChangePack(try #require(pack).model(role: .response))
    }

    func attach(disableGC: Bool = false) async throws {
      document = Document(key: key)
      try await document.setActor(ActorID(hex: clientID))
      let name = String(clientID.suffix(4))
      try await document.update { _, presence in presence.set(["name": .string(name)]) }
      let request = AttachDocumentRequest(clientID: clientID, changePack: WireChangePack(try await document.createChangePack()), disableGC: disableGC)
      let answer = try await twins.call("attach \(clientID)") { service, context throws(ServiceError) in
        try await service.attachDocument(request, context: context)
      }
      documentID = answer.documentID
      try await apply(answer.changePack)
      attached = true
    }

    func sync(pushOnly: Bool = false) async throws {
      let request = PushPullChangesRequest(
        clientID: clientID, documentID: documentID, changePack: WireChangePack(try await document.createChangePack()), pushOnly: pushOnly)
      let answer = try await twins.call("sync \(clientID)") { service, context throws(ServiceError) in
        try await service.pushPullChanges(request, context: context)
      }
      try await apply(answer.changePack)
    }

    func detach() async throws {
      try await document.update { _, presence in presence.clear() }
      let request = DetachDocumentRequest(clientID: clientID, documentID: documentID, changePack: WireChangePack(try await document.createChangePack()))
      let answer = try await twins.call("detach \(clientID)") { service, context throws(ServiceError) in
        try await service.detachDocument(request, context: context)
      }
      try await apply(answer.changePack)
      attached = false
    }

    func remove() async throws {
      var pack = WireChangePack(try await document.createChangePack())
      pack.isRemoved = true
      let request = RemoveDocumentRequest(clientID: clientID, documentID: documentID, changePack: pack)
      let answer = try await twins.call("remove \(clientID)") { service, context throws(ServiceError) in
        try await service.removeDocument(request, context: context)
      }
      try await apply(answer.changePack)
      attached = false
    }
  }

  /// One random edit of every kind the server materializes: text edits, deletions and styles
  /// (their removed attributes leave garbage), array inserts, removals and moves (moves leave
  /// dead positions), object sets and removals, nested objects, counters.
  static func randomEdit(_ document: Document, _ random: inout SplitMix64, tag: String) async throws {
    let choice = random.next() % 9
    let a = Int(random.next() % 1000)
    let b = Int(random.next() % 1000)
    try await document.update { root, presence in
      switch choice {
      case 0, 1:
        guard let text = root.text("text") else { return }
        let length = text.length
        let from = length == 0 ? 0 : a % (length + 1)
        let to = min(length, from + b % 4)
        _ = try text.edit(from, to, b % 5 == 0 ? "" : "t\(tag)")
      case 2:
        guard let text = root.text("text"), text.length > 1 else { return }
        let from = a % text.length
        let to = min(text.length, from + 1 + b % 5)
        if b % 2 == 0 {
          try text.setStyle(from, to, ["bold": .bool(true), "size": .integer(Int32(b % 3))])
        } else {
          try text.removeStyle(from, to, keys: ["bold"])
        }
      case 3, 4:
        guard let list = root.array("list") else { return }
        if list.count > 1 && a % 3 == 0 {
          try list.move(from: a % list.count, to: b % list.count)
        } else if list.count > 0 && a % 3 == 1 {
          try list.remove(at: b % list.count)
        } else {
          try list.insert(.string(tag), at: list.count == 0 ? 0 : b % (list.count + 1))
        }
      case 5:
        root.counter("count")?.increase(by: Int64(a % 7) - 3)
      case 6:
        if a % 4 == 0 { root.remove("k\(b % 4)") } else { root["k\(b % 4)"] = .string(tag) }
      case 7:
        let nested = root.setNewObject("o\(a % 3)")
        nested["v"] = .integer(Int32(b))
        _ = nested.setNewArray("items")
      default:
        presence.set(["at": .integer(Int32(a))])
      }
    }
  }

  @Test("answers and stored snapshots are byte for byte those of a service without the cache", arguments: [UInt64(1), 2, 3])
  func sameBytesAsWithoutTheCache(seed: UInt64) async throws {
    let twins = Twins(cached: Self.service(budget: 64 << 20), plain: Self.service(budget: 0))
    var random = SplitMix64(seed: seed)
    let key = "materialized-\(seed)"
    let founder = try await Replica(twins, key: key, clientKey: "founder")
    try await founder.attach()
    try await founder.document.update { root, _ in
      _ = root.setNewText("text")
      _ = root.setNewArray("list")
      _ = root.setNewCounter("count", .int(0))
    }
    try await founder.sync()
    var replicas = [founder]
    for index in 0..<3 {
      let replica = try await Replica(twins, key: key, clientKey: "r\(index)")
      try await replica.attach(disableGC: index == 2)
      replicas.append(replica)
    }
    for step in 0..<260 {
      let replica = replicas[Int(random.next() % UInt64(replicas.count))]
      let action = random.next() % 20
      if !replica.attached {
        try await replica.attach()
        continue
      }
      switch action {
      case 0..<10:
        try await Self.randomEdit(replica.document, &random, tag: "\(step)")
      case 10..<15:
        // Replicas that go long without syncing come back far behind: a snapshot answer.
        try await replica.sync()
      case 15:
        try await replica.sync(pushOnly: true)
      case 16:
        try await replica.detach()
      case 17:
        // A new client: a fresh attach, usually from a snapshot.
        let newcomer = try await Replica(twins, key: key, clientKey: "n\(step)")
        try await newcomer.attach(disableGC: random.next() % 4 == 0)
        replicas.append(newcomer)
      default:
        for other in replicas where other.attached { try await other.sync() }
      }
    }
    for replica in replicas where replica.attached { try await replica.sync() }
    for replica in replicas where replica.attached { try await replica.sync() }
    let expected = await founder.document.toSortedJSON()
    for replica in replicas where replica.attached {
      #expect(await replica.document.toSortedJSON() == expected, "seed \(seed): replica \(replica.clientID)")
    }
    let reuses = twins.cached.materializedReuses.withLock { $0 }
    #expect(reuses >= 20, "seed \(seed): only \(reuses) builds started from a materialized document")
    #expect(twins.plain.materializedReuses.withLock { $0 } == 0)
    #expect(twins.plain.materialized.contents.documents.isEmpty)
    // Removing the document drops its entry.
    #expect(!twins.cached.materialized.contents.documents.isEmpty)
    let remover = try #require(replicas.first { $0.attached })
    try await remover.remove()
    #expect(twins.cached.materialized.contents.documents.isEmpty)
  }

  @Test("entries stay within the budget, least recently used first out; the newer entry of a document wins")
  func budget() async throws {
    let cache = MaterializedDocuments(budget: 10 * MaterializedDocuments.bytesPerSnapshotByte)
    let ids = (0..<4).map { index in ResourceID(bytes: (0..<12).map { UInt8($0 * 7 + index) })! }
    func entry(_ bytes: Int, base: Int64 = 0, through: Int64 = 1) -> MaterializedDocuments.Entry {
      MaterializedDocuments.Entry(document: Document(key: ""), baseSeq: base, base: [], through: through, snapshotBytes: bytes)
    }
    cache.checkIn(ids[0], entry(4))
    cache.checkIn(ids[1], entry(4))
    #expect(cache.contents.documents == [ids[0], ids[1]])
    cache.checkIn(ids[2], entry(4))  // 12 > 10: the least recently used (ids[0]) goes
    #expect(cache.contents.documents == [ids[1], ids[2]])
    #expect(cache.contents.cost == 8 * MaterializedDocuments.bytesPerSnapshotByte)
    cache.checkIn(ids[3], entry(11))  // larger than the budget: not kept
    #expect(cache.contents.documents == [ids[1], ids[2]])
    // An entry further along stays; an older one does not replace it.
    cache.checkIn(ids[1], entry(2, base: 5, through: 9))
    cache.checkIn(ids[1], entry(3, base: 5, through: 7))
    cache.checkIn(ids[1], entry(3, base: 0, through: 12))
    let taken = try #require(cache.checkOut(ids[1]))
    #expect((taken.baseSeq, taken.through, taken.snapshotBytes) == (5, 9, 2))
    #expect(cache.checkOut(ids[1]) == nil)
    #expect(cache.contents.documents == [ids[2]])
    cache.drop(ids[2])
    #expect(cache.contents.documents.isEmpty && cache.contents.cost == 0)
    #expect(MaterializedDocuments(budget: 0).contents.cost == 0)
  }
}
