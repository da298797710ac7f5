import Foundation
import CRDT

// Helpers shared by the Yorkie-derived test files (ObjectTests, ArrayTests, CounterTests,
// PrimitiveSerializationTests, DocumentTests, GarbageCollectionTests, InvalidInputTests).
// Everything here goes through the public API only.

/// The actor `00…0n` (24 lowercase hex digits), as Yorkie's in-process harnesses number their
/// replicas: `actor(1)` is `000000000000000000000001`.
func actor(_ n: Int) -> ActorID {
  let digits = String(n, radix: 16)
  let hex = String(repeating: "0", count: max(0, 24 - digits.count)) + digits
  // A well-formed 24-digit hex string never fails to parse.
  return try! ActorID(hex: hex)
}

/// A version vector that maps every given actor to the largest lamport (Yorkie's `MaxLamport`,
/// `Int64.max`): passing it to `garbageCollect` means "every replica has seen everything", which is
/// how Yorkie's single-replica GC tests call `garbageCollect(maxVectorOf([actor]))`.
func maxVector(_ actors: [ActorID]) -> VersionVector {
  VersionVector(Dictionary(uniqueKeysWithValues: actors.map { ($0, Int64.max) }))
}

/// `maxVector` for a detached document, whose tickets carry `ActorID.initial`.
func maxVectorOfDetached() -> VersionVector {
  maxVector([ActorID.initial])
}

/// Two replicas of one document, with actors `…01` and `…02`, as Yorkie's `crossSync`
/// harnesses (JS `document_size_test.ts`, Go `gc_split_leak_test.go`) set them up. They stand in
/// for the two attached clients of Yorkie's `withTwoClientsAndDocuments` integration tests.
func makeReplicas(key: String = "test-doc") async -> (Document, Document) {
  let d1 = Document(key: key)
  try! await d1.setActor(actor(1))
  let d2 = Document(key: key)
  try! await d2.setActor(actor(2))
  return (d1, d2)
}

/// The pack a server would hand to the other replica: the sender's changes, with an initial
/// checkpoint (so none of the receiver's own changes are acknowledged) and an empty version vector
/// (so the receiver's automatic GC purges nothing).
func delivery(of pack: ChangePack) -> ChangePack {
  ChangePack(
    key: pack.key,
    checkpoint: Checkpoint(serverSeq: 0, clientSeq: 0),
    changes: pack.changes,
    versionVector: VersionVector()
  )
}

/// The pack a server would answer the sender with: no changes, and a checkpoint whose clientSeq
/// is the last pushed clientSeq, which acknowledges everything that was pushed.
func acknowledgement(of pack: ChangePack) -> ChangePack {
  ChangePack(
    key: pack.key,
    checkpoint: Checkpoint(serverSeq: 0, clientSeq: pack.changes.last?.id.clientSeq ?? 0),
    changes: [],
    versionVector: VersionVector()
  )
}

/// Yorkie's in-process `crossSync(d1, d2)`: each side's pending local changes are delivered to the
/// other side, then each side is acknowledged up to the last clientSeq it pushed. One call stands
/// in for the `c1.sync(); c2.sync(); c1.sync()` sequences of Yorkie's two-client tests.
func crossSync(_ a: Document, _ b: Document) async throws {
  let packA = try await a.createChangePack()
  let packB = try await b.createChangePack()
  try await b.applyChangePack(delivery(of: packA))
  try await a.applyChangePack(delivery(of: packB))
  try await a.applyChangePack(acknowledgement(of: packA))
  try await b.applyChangePack(acknowledgement(of: packB))
}

/// The number of local changes a document would push now.
func pendingChangeCount(_ doc: Document) async -> Int {
  await doc.pendingChanges.count
}

/// A lock-protected cell for carrying a value out of an `update` closure that is not
/// `Sendable` (a proxy, kept to test what using it later does) or several values at once. A
/// `Sendable` result is simpler: `update` returns what its closure returns.
/// Unchecked Sendable: every access to `value` goes through the lock.
final class Captured<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value?

  init(_ value: Value? = nil) { stored = value }

  var value: Value? {
    get { lock.lock(); defer { lock.unlock() }; return stored }
    set { lock.lock(); defer { lock.unlock() }; stored = newValue }
  }
}

/// An error of the test's own, thrown from an updater to check that `update` rolls back and
/// rethrows it unchanged.
struct DummyError: Error, Equatable {
  var message = "dummy error"
}

/// Thrown by `elementID(_:_:)` when an index has no live element.
struct MissingElement: Error, CustomStringConvertible {
  var index: Int
  var description: String { "no live element at index \(index)" }
}

/// The ID (createdAt ticket) of the live element at `index`, for the ID-based array calls.
func elementID(_ array: JSONArray, _ index: Int) throws -> TimeTicket {
  guard let id = array.id(at: index) else { throw MissingElement(index: index) }
  return id
}

/// The number of elements of the array at `path`, read through `value(atPath:)`.
func arrayCount(_ doc: Document, _ path: String) async throws -> Int? {
  guard case .array(let items)? = try await doc.value(atPath: path) else { return nil }
  return items.count
}
