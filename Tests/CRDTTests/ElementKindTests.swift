import Foundation
import Testing
import CRDT

// The element kind (CRDTElement.kind, ElementCapabilities) and the execution mode of operations
// (ExecutionMode): what a new element kind and the undo history (issue 24) build on.

@Suite("Element kinds and execution modes")
struct ElementKindTests {
  private static let actor = try! ActorID(hex: "0000000000000000000000a1")
  private static func ticket(_ lamport: Int64) -> TimeTicket { TimeTicket(lamport: lamport, delimiter: 1, actorID: actor) }

  /// One element of every kind, each with its expected kind name and JSON.
  private static func elements() throws -> [(element: CRDTElement, name: String, json: String)] {
    let text = CRDTText(createdAt: ticket(4))
    let head = try #require(text.position(at: 0))
    _ = try text.edit(from: head, to: head, content: "hi", attributes: nil, editedAt: ticket(5),
                      mode: .remote(versionVector: VersionVector(), describing: false), journal: Journal())
    let array = CRDTArray(createdAt: ticket(2))
    array.insert(CRDTPrimitive(.integer(7), createdAt: ticket(3)), afterPosition: .initial, executedAt: ticket(3))
    let object = CRDTObject(createdAt: ticket(6))
    _ = try object.set("a", CRDTPrimitive(.bool(true), createdAt: ticket(7)), executedAt: ticket(7))
    return [
      (CRDTPrimitive(.string("x"), createdAt: ticket(1)), "primitive", "\"x\""),
      (array, "array", "[7]"),
      (text, "text", "[{\"val\":\"hi\"}]"),
      (object, "object", "{\"a\":true}"),
      (CRDTCounter(.long(-3), createdAt: ticket(8)), "counter", "-3"),
    ]
  }

  @Test("every element reports its own kind, is registered unless a primitive, and copies as itself")
  func kindsNameTheirClass() throws {
    for (element, name, json) in try Self.elements() {
      let kind = element.kind
      #expect(kind.name == name)
      #expect(kind.isRegistered == (name != "primitive"), "\(name)")
      #expect(element.toJSON() == json, "\(name)")
      let copy = kind.deepCopy()
      #expect(copy !== element)
      #expect(copy.kind.name == name)
      #expect(copy.toJSON() == json, "\(name)")
      #expect(ElementSnapshot(copy) == ElementSnapshot(element), "\(name)")
      #expect(kind.checkInvariants() == nil, "\(name)")
    }
  }

  @Test("each execution mode says what it describes, what its author had seen, and what it adopts")
  func modes() {
    let vector = VersionVector([Self.actor: 3])
    let modes: [(ExecutionMode, describes: Bool, vector: VersionVector?, adopts: Bool, newest: Bool)] = [
      (.local(describing: true), true, nil, true, true),
      (.local(describing: false), false, nil, true, true),
      (.remote(versionVector: vector, describing: true), true, vector, false, false),
      // An empty vector says nothing: the author is taken to know everything, as before.
      (.remote(versionVector: VersionVector(), describing: false), false, nil, false, false),
      (.undoRedo(describing: true), true, nil, false, true),
      (.replay, false, nil, false, false),
    ]
    for (mode, describes, authorVector, adopts, newest) in modes {
      #expect(mode.describes == describes, "\(mode)")
      #expect(mode.authorVector == authorVector, "\(mode)")
      #expect(mode.adoptsValues == adopts, "\(mode)")
      #expect(mode.issuesNewestTickets == newest, "\(mode)")
    }
  }

  @Test("only the local execution puts the primitive an operation holds into the tree; a replay puts a copy")
  func onlyLocalAdopts() throws {
    for (mode, adopts) in [(ExecutionMode.local(describing: false), true), (.replay, false), (.undoRedo(describing: false), false)] {
      let root = CRDTRoot()
      let held = CRDTPrimitive(.integer(1), createdAt: Self.ticket(1))
      let set = Operation.set(parentCreatedAt: .initial, key: "k", value: OperationValue(adopting: held), executedAt: held.createdAt)
      _ = try set.execute(on: root, journal: Journal(), mode: mode)
      let placed = try #require(root.object.get("k"))
      #expect((placed === held) == adopts, "\(mode)")
      #expect(placed.toJSON() == "1")
    }
  }

  @Test("an operation on an element of the wrong kind is refused with typeMismatch and names both")
  func wrongKind() throws {
    let root = CRDTRoot()
    let counter = CRDTCounter(.int(0), createdAt: Self.ticket(1))
    _ = try Operation.set(parentCreatedAt: .initial, key: "c", value: OperationValue(ElementSnapshot(counter)), executedAt: Self.ticket(1))
      .execute(on: root, journal: Journal(), mode: .replay)
    let remove = Operation.remove(parentCreatedAt: Self.ticket(1), createdAt: Self.ticket(1), executedAt: Self.ticket(2))
    let error = try #require(throws: YorkieError.self) { try remove.execute(on: root, journal: Journal(), mode: .replay) }
    #expect(error.code == .typeMismatch)
    #expect(error.message == "Remove needs an object or an array, but \(Self.ticket(1)) is CRDTCounter")
  }
}
