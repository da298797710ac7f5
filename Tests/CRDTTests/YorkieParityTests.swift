@testable import CRDT
import Foundation
import Testing

/// Every place where the Convergence article says this SDK applies a rule unlike Yorkie's: a
/// history as the server orders it, written as Yorkie's SDKs send it (explicit tickets and
/// version vectors), applied to a passive replica, against the document Yorkie v0.7.17 shows.
/// The Yorkie results are derived from its Go code (`pkg/document/crdt/rga_tree_list.go`
/// `MoveAfter`/`insertAfter`/`Set`, `primitive.go` `Remove`, `operations/array_set.go`,
/// `gc.go`) and its JS SDK where they differ. Where Yorkie's replicas agree the result must be
/// theirs; where they disagree, the test says who shows what and that every Swift replica —
/// passive or editor, collecting or not — shows one same document.
///
/// Authors: A (`…0a`), B (`…0b`). A's first change makes `list = [1, 2, 3]`, elements a, b, c.
@Suite("Parity with Yorkie's replicas")
struct YorkieParityTests {
  static let a = actor(10)
  static let b = actor(11)
  static let list = TimeTicket(lamport: 1, delimiter: 1, actorID: a)
  static let elementA = TimeTicket(lamport: 1, delimiter: 2, actorID: a)
  static let elementB = TimeTicket(lamport: 1, delimiter: 3, actorID: a)
  static let elementC = TimeTicket(lamport: 1, delimiter: 4, actorID: a)

  /// A1: `list = [1, 2, 3]`. Built anew for each use: a change held in a global for the whole
  /// run is reported by LeakSanitizer at exit, because an operation value's box is held in a
  /// two-case enum whose case Swift keeps in the pointer's spare bits, which LeakSanitizer does
  /// not read as a pointer (a false report, but one that fails `.ci/run`).
  static var create: Change {
    change(a, seq: 1, lamport: 1, saw: [:], [
      .set(parentCreatedAt: .initial, key: "list", value: OperationValue(.array([], ElementSnapshot.Meta(createdAt: list))), executedAt: list),
      .add(parentCreatedAt: list, previousCreatedAt: .initial, value: int(1, elementA), executedAt: elementA),
      .add(parentCreatedAt: list, previousCreatedAt: elementA, value: int(2, elementB), executedAt: elementB),
      .add(parentCreatedAt: list, previousCreatedAt: elementB, value: int(3, elementC), executedAt: elementC),
    ])
  }

  // MARK: ArraySet

  @Test("an ArraySet on a moved element its author saw moved replaces it where it is now, collected or not")
  func arraySetAfterSeenMove() async throws {
    // A2 moves c to the front; A3 sets c to 9. Yorkie's JS SDK puts 9 where c is ([9,1,2]);
    // its Go SDK too once it purged c's first position, and after that position ([1,2,9])
    // before. Go replicas purge within a sync or two, so this is what they show in practice.
    let move = change(Self.a, seq: 2, lamport: 2, saw: [:], [.move(parentCreatedAt: Self.list, previousCreatedAt: .initial, createdAt: Self.elementC, executedAt: ticket(2, Self.a))])
    let set = change(Self.a, seq: 3, lamport: 3, saw: [:], [.arraySet(parentCreatedAt: Self.list, createdAt: Self.elementC, value: int(9, ticket(3, Self.a)), executedAt: ticket(3, Self.a))])
    for collecting in [false, true] {
      let doc = try await passive([Self.create, move], thenCollect: collecting ? VersionVector([Self.a: 2]) : nil, then: [set])
      #expect(await doc.toJSON() == #"{"list":[9,1,2]}"#, "collecting: \(collecting)")
      #expect(await doc.checkInvariants() == nil)
    }
  }

  @Test("an ArraySet concurrent with a move goes where its author saw the element, on every replica")
  func arraySetConcurrentWithMove() async throws {
    // B1 moves c to the front; A2, not having seen it, sets c to 9; the server orders B1 first.
    // Yorkie disagrees with itself: Go replicas and the editor A show [1,2,9] (c's first
    // position, which no one can purge before A has seen B1), a JS passive replica [9,1,2].
    let move = change(Self.b, seq: 1, lamport: 2, saw: [Self.a: 1], [.move(parentCreatedAt: Self.list, previousCreatedAt: .initial, createdAt: Self.elementC, executedAt: ticket(2, Self.b))])
    let set = change(Self.a, seq: 2, lamport: 2, saw: [:], [.arraySet(parentCreatedAt: Self.list, createdAt: Self.elementC, value: int(9, ticket(2, Self.a)), executedAt: ticket(2, Self.a))])
    let serverOrder = try await passive([Self.create, move, set])
    #expect(await serverOrder.toJSON() == #"{"list":[1,2,9]}"#)
    let editorA = try await passive([Self.create, set, move])
    #expect(await editorA.toJSON() == #"{"list":[1,2,9]}"#)
    // A Swift editor C makes such an ArraySet itself (c has not moved on its replica), then
    // receives B1; a passive replica gets B1 first.
    let swiftC = Document(key: "parity")
    try await swiftC.setActor(actor(12))
    try await swiftC.applyChanges([Self.create])
    try await swiftC.update { root, _ in try #require(root.array("list")).set(.integer(9), at: 2) }
    let setC = try await swiftC.createChangePack().changes
    try await swiftC.applyChanges([move])
    #expect(await swiftC.toJSON() == #"{"list":[1,2,9]}"#)
    #expect(try await passive([Self.create, move] + setC).toJSON() == #"{"list":[1,2,9]}"#)
  }

  @Test("an ArraySet goes after the newest position of the element its author saw, whatever was collected")
  func arraySetAfterSeenMoveConcurrentWithAnother() async throws {
    // A2 moves c after a; B1, having seen A2, moves c to the front; A3, not having seen B1,
    // sets c to 9. Editor A shows [1,9,2]; Yorkie's passive replicas show [1,2,9] (Go, c's
    // first position not yet purged), [9,1,2] (Go after purging it, and JS).
    let moveA = change(Self.a, seq: 2, lamport: 2, saw: [:], [.move(parentCreatedAt: Self.list, previousCreatedAt: Self.elementA, createdAt: Self.elementC, executedAt: ticket(2, Self.a))])
    let moveB = change(Self.b, seq: 1, lamport: 3, saw: [Self.a: 2], [.move(parentCreatedAt: Self.list, previousCreatedAt: .initial, createdAt: Self.elementC, executedAt: ticket(3, Self.b))])
    let set = change(Self.a, seq: 3, lamport: 3, saw: [:], [.arraySet(parentCreatedAt: Self.list, createdAt: Self.elementC, value: int(9, ticket(3, Self.a)), executedAt: ticket(3, Self.a))])
    // The minimum vector while A has not synced B1: c's first position (dead since A2) may go.
    for collect in [nil, VersionVector([Self.a: 2, Self.b: 0])] {
      let doc = try await passive([Self.create, moveA, moveB], thenCollect: collect, then: [set])
      #expect(await doc.toJSON() == #"{"list":[1,9,2]}"#, "collecting with \(String(describing: collect))")
    }
    let editorA = try await passive([Self.create, moveA, set, moveB])
    #expect(await editorA.toJSON() == #"{"list":[1,9,2]}"#)
  }

  // MARK: Removal and moves

  @Test("a removal concurrent with a newer move removes the element, as in Yorkie v0.7.17")
  func removalConcurrentWithNewerMove() async throws {
    // B1 (lamport 5) moves c to the front; A2 (lamport 2), not having seen it, removes c.
    // Yorkie v0.7.17 (Go Primitive.Remove, JS CRDTElement.remove) compares a removal with the
    // element's creation, as this SDK does: c is removed in both orders.
    let move = change(Self.b, seq: 1, lamport: 5, saw: [Self.a: 1], [.move(parentCreatedAt: Self.list, previousCreatedAt: .initial, createdAt: Self.elementC, executedAt: ticket(5, Self.b))])
    let remove = change(Self.a, seq: 2, lamport: 2, saw: [:], [.remove(parentCreatedAt: Self.list, createdAt: Self.elementC, executedAt: ticket(2, Self.a))])
    #expect(try await passive([Self.create, move, remove]).toJSON() == #"{"list":[1,2]}"#)
    #expect(try await passive([Self.create, remove, move]).toJSON() == #"{"list":[1,2]}"#)
  }

  @Test("a change anchored on a losing move's position lands where Yorkie puts it, and collection cannot lose it")
  func insertionAfterLosingMove() async throws {
    // A2 (lamport 5) moves a after c; B1 (lamport 2), concurrently, moves a after b and loses;
    // B2 appends 7 after a where B sees it (B1's position). Yorkie v0.7.17 also creates the
    // losing move's position (dead), so its passive replicas show [2,7,3,1]. It lets garbage
    // collection purge that position once everyone has seen B1, before B2 arrives, and then
    // cannot apply B2; here the position dies at the winning move, which B has not seen yet.
    let moveA = change(Self.a, seq: 2, lamport: 5, saw: [:], [.move(parentCreatedAt: Self.list, previousCreatedAt: Self.elementC, createdAt: Self.elementA, executedAt: ticket(5, Self.a))])
    let moveB = change(Self.b, seq: 1, lamport: 2, saw: [Self.a: 1], [.move(parentCreatedAt: Self.list, previousCreatedAt: Self.elementB, createdAt: Self.elementA, executedAt: ticket(2, Self.b))])
    let append = change(Self.b, seq: 2, lamport: 3, saw: [Self.a: 1], [.add(parentCreatedAt: Self.list, previousCreatedAt: ticket(2, Self.b), value: int(7, ticket(3, Self.b)), executedAt: ticket(3, Self.b))])
    for collect in [nil, VersionVector([Self.a: 1, Self.b: 2])] {
      let doc = try await passive([Self.create, moveA, moveB], thenCollect: collect, then: [append])
      #expect(await doc.toJSON() == #"{"list":[2,7,3,1]}"#, "collecting with \(String(describing: collect))")
    }
    #expect(try await passive([Self.create, moveB, append, moveA]).toJSON() == #"{"list":[2,7,3,1]}"#)
  }

  // MARK: Garbage collection

  @Test("a purge never moves a later concurrent insertion: the inserter's order on every replica")
  func purgeKeepsConcurrentInsertionInPlace() async throws {
    // A2 removes b; B1 (lamport 10, saw A2) inserts 8 after b; A3 (lamport 3, not having seen
    // B1) inserts 9 after a. Editor A and every Yorkie replica that has not purged b show
    // [1,9,8,3]. A Yorkie replica that purged b (everyone had seen A2) before A3 arrived skips
    // B1's newer node and shows [1,8,9,3]: Yorkie's replicas disagree. Here b stays while a
    // newer node after it is not known to everyone, so the collection changes nothing.
    let remove = change(Self.a, seq: 2, lamport: 2, saw: [:], [.remove(parentCreatedAt: Self.list, createdAt: Self.elementB, executedAt: ticket(2, Self.a))])
    let insertB = change(Self.b, seq: 1, lamport: 10, saw: [Self.a: 2], [.add(parentCreatedAt: Self.list, previousCreatedAt: Self.elementB, value: int(8, ticket(10, Self.b)), executedAt: ticket(10, Self.b))])
    let insertA = change(Self.a, seq: 3, lamport: 3, saw: [:], [.add(parentCreatedAt: Self.list, previousCreatedAt: Self.elementA, value: int(9, ticket(3, Self.a)), executedAt: ticket(3, Self.a))])
    for collect in [nil, VersionVector([Self.a: 2, Self.b: 0])] {
      let doc = try await passive([Self.create, remove, insertB], thenCollect: collect, then: [insertA])
      #expect(await doc.toJSON() == #"{"list":[1,9,8,3]}"#, "collecting with \(String(describing: collect))")
    }
    #expect(try await passive([Self.create, remove, insertA, insertB]).toJSON() == #"{"list":[1,9,8,3]}"#)
  }

  // MARK: Object member order

  @Test("members print in creation order on every replica; Yorkie's replicas print them differently")
  func memberOrderIsTheSameOnEveryReplica() async throws {
    // A sets "y" (lamport 3), B concurrently sets "x" (lamport 2). Same values everywhere; the
    // JS SDK prints members in the order its replica applied the sets (passive {"y","x"},
    // editor B {"x","y"}), the Go SDK sorted ({"x","y"}): Yorkie's replicas disagree on the text.
    let setY = change(Self.a, seq: 2, lamport: 3, saw: [:], [.set(parentCreatedAt: .initial, key: "y", value: int(1, ticket(3, Self.a)), executedAt: ticket(3, Self.a))])
    let setX = change(Self.b, seq: 1, lamport: 2, saw: [Self.a: 1], [.set(parentCreatedAt: .initial, key: "x", value: int(2, ticket(2, Self.b)), executedAt: ticket(2, Self.b))])
    let passiveOrder = try await passive([Self.create, setY, setX]).toJSON()
    #expect(passiveOrder == #"{"list":[1,2,3],"x":2,"y":1}"#)
    #expect(try await passive([Self.create, setX, setY]).toJSON() == passiveOrder)
  }

  // MARK: Helpers

  /// A fresh replica (writing as actor 1, which edits nothing here) that applied `first`, then
  /// optionally garbage-collected with `vector`, then applied `then`, each change on its own.
  private func passive(_ first: [Change], thenCollect vector: VersionVector? = nil, then: [Change] = []) async throws -> Document {
    let doc = Document(key: "parity")
    try await doc.setActor(actor(1))
    for change in first { try await doc.applyChanges([change]) }
    if let vector { _ = await doc.garbageCollect(minSyncedVersionVector: vector) }
    for change in then { try await doc.applyChanges([change]) }
    #expect(await doc.checkInvariants() == nil)
    return doc
  }
}

private func ticket(_ lamport: Int64, _ author: ActorID, _ delimiter: UInt32 = 1) -> TimeTicket {
  TimeTicket(lamport: lamport, delimiter: delimiter, actorID: author)
}

private func int(_ value: Int32, _ createdAt: TimeTicket) -> OperationValue {
  OperationValue(.primitive(.integer(value), ElementSnapshot.Meta(createdAt: createdAt)))
}

/// A change of `author` as Yorkie's SDKs send it: its version vector holds what the author had
/// seen of others (`saw`) and its own lamport.
private func change(_ author: ActorID, seq: UInt32, lamport: Int64, saw: [ActorID: Int64], _ operations: [CRDT.Operation]) -> Change {
  var seen = saw
  seen[author] = lamport
  return Change(id: ChangeID(clientSeq: seq, lamport: lamport, actorID: author, versionVector: VersionVector(seen)), operations: operations)
}
