@testable import CRDT
import Foundation
import Testing
@testable import YorkieProtocol

/// Histories captured against the development server where the Swift replica alone differed
/// from two Go SDK v0.7.17 replicas that agreed (`Fixtures/interop`, each file's `about`): a Go
/// editor's ArraySet on an element that had been moved. The Go replicas had garbage-collected
/// the element's first position; the Swift replica had not and placed the new value there.
/// The result must be the Go replicas' document however the changes arrive and whenever
/// garbage collection runs.
@Suite("Interop fixtures: ArraySet after a move")
struct InteropFixtureTests {
  static let names = ["swift-odd-arrayset-after-move-seed26.json", "swift-odd-arrayset-after-move-seed32.json"]

  @Test("the whole pack applied at once gives the Go replicas' document", arguments: names)
  func wholePack(name: String) async throws {
    let fixture = try InteropFixture.named(name)
    let doc = Document(key: fixture.pack.key)
    try await doc.applyChangePack(fixture.pack)
    #expect(try await fixture.normalizedJSON(of: doc) == fixture.expected, "\(name)")
    #expect(fixture.expected != fixture.swiftReplica, "\(name): the fixture records a divergence")
    #expect(await doc.checkInvariants() == nil)
  }

  @Test("change by change, with garbage collection after every change or at none", arguments: names)
  func changeByChange(name: String) async throws {
    let fixture = try InteropFixture.named(name)
    for collecting in [true, false] {
      let doc = try await fixture.replay { _ in collecting }
      #expect(try await fixture.normalizedJSON(of: doc) == fixture.expected, "\(name), collecting: \(collecting)")
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("change by change, with garbage collection at random points", arguments: names)
  func randomCollections(name: String) async throws {
    let fixture = try InteropFixture.named(name)
    for seed: UInt64 in 1...6 {
      var random = SplitMix64(seed: seed)
      let doc = try await fixture.replay { _ in random.next() % 4 == 0 }
      #expect(try await fixture.normalizedJSON(of: doc) == fixture.expected, "\(name), seed \(seed)")
    }
  }
}

/// One captured history: the server's attach pack (every change, in server order) and the
/// documents the replicas showed.
struct InteropFixture {
  let pack: ChangePack
  let expected: WireJSON
  let swiftReplica: WireJSON

  static func named(_ name: String) throws -> InteropFixture {
    guard let folder = Bundle.module.url(forResource: "interop", withExtension: nil) else {
      throw YorkieError(.invalidPath, "the interop fixture folder is missing from the test bundle")
    }
    let root = try WireJSON.parse(Data(contentsOf: folder.appendingPathComponent(name)))
    guard let packJSON = root["changePack"], let expected = root["expected"], let swift = root["swiftReplica"] else {
      throw YorkieError(.invalidPath, "\(name) lacks changePack, expected or swiftReplica")
    }
    let pack = try WireChangePack(json: packJSON, path: "\(name).changePack").model()
    return InteropFixture(pack: pack, expected: expected.sortedMembers, swiftReplica: swift.sortedMembers)
  }

  /// Applies the changes one at a time to a fresh replica; after change `i` (0-based), when
  /// `collectAfter(i)` says so, garbage-collects with the entry-wise minimum of the latest
  /// version vectors of every actor that edited so far (what the server sends as the minimum
  /// synced vector while those clients keep syncing; the observer only sets presence).
  func replay(collectAfter: (Int) -> Bool) async throws -> Document {
    let doc = Document(key: pack.key)
    var latest: [ActorID: VersionVector] = [:]
    for (index, change) in pack.changes.enumerated() {
      try await doc.applyChangePack(ChangePack(key: pack.key, checkpoint: .initial, changes: [change]))
      if !change.operations.isEmpty { latest[change.id.actorID] = change.id.versionVector }
      guard collectAfter(index), let first = latest.values.first else { continue }
      let minimum = latest.values.reduce(first) { $0.minimum(with: $1) }
      _ = await doc.garbageCollect(minSyncedVersionVector: minimum)
    }
    return doc
  }

  /// The document's JSON with object members sorted, comparable to the recorded documents.
  func normalizedJSON(of doc: Document) async throws -> WireJSON {
    try WireJSON.parse(await doc.toSortedJSON()).sortedMembers
  }
}

extension WireJSON {
  /// The same JSON with every object's members sorted by key.
  var sortedMembers: WireJSON {
    switch self {
    case .object(let members):
      return .object(members.map { WireJSON.Member($0.key, $0.value.sortedMembers) }.sorted { $0.key < $1.key })
    case .array(let items):
      return .array(items.map(\.sortedMembers))
    default:
      return self
    }
  }
}
