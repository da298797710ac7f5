/// Everything a document knows about its elements besides the tree itself: a registry of every
/// element by creation ticket (with its parent, for paths), the tombstones waiting for garbage
/// collection, and the node-level garbage (GC pairs) such as dead array positions.
///
/// Removed text pieces are the exception: they are garbage of their own (Yorkie registers one
/// GC pair each), but a text already marks them, so the root keeps only the set of texts that
/// may hold some and finds the pieces there. A deletion costs no pair, and a document does not
/// keep a second copy of every removed piece's identity.
///
/// Garbage collection is the only place that physically deletes anything.
package final class CRDTRoot {
  package struct Entry {
    package let element: CRDTElement
    package let parent: CRDTElement?
  }

  /// Node-level garbage inside a container.
  package enum GCChild: Hashable {
    /// A dead array position, named by its id.
    case arrayPosition(TimeTicket)
    /// A removed text attribute of a piece.
    case textAttribute(TextNodeID, String)
    /// A removed node of a tree.
    case treeNode(TreeNodeID)
    /// A removed attribute of a tree element.
    case treeAttribute(TreeNodeID, String)
  }

  package struct GCPairKey: Hashable {
    package let parent: TimeTicket
    package let child: GCChild

    /// A cheap mix of the key's fields: what the store shards on and hashes (one word fed to
    /// the hasher instead of every field).
    var mix: UInt64 {
      func mixed(_ ticket: TimeTicket) -> UInt64 {
        var x = UInt64(bitPattern: ticket.lamport) &* 0x9E37_79B9_7F4A_7C15
        x ^= ticket.actorID.high &* 0xC2B2_AE3D_27D4_EB4F
        x ^= (UInt64(ticket.actorID.low) << 32 | UInt64(ticket.delimiter)) &* 0x1656_67B1_9E37_79F9
        return x ^ (x >> 29)
      }
      var x = mixed(parent) &* 0xBF58_476D_1CE4_E5B9
      switch child {
      case .arrayPosition(let id): x ^= mixed(id)
      case .textAttribute(let id, let name):
        x ^= mixed(id.createdAt) &+ UInt64(UInt32(bitPattern: id.offset)) &+ UInt64(bitPattern: Int64(name.hashValue))
      case .treeNode(let id):
        x ^= mixed(id.createdAt) &+ UInt64(UInt32(bitPattern: id.offset)) &* 0x2545_F491_4F6C_DD1D
      case .treeAttribute(let id, let name):
        x ^= (mixed(id.createdAt) &+ UInt64(UInt32(bitPattern: id.offset))) &* 0x2545_F491_4F6C_DD1D
          &+ UInt64(bitPattern: Int64(name.hashValue))
      }
      x = (x ^ (x >> 31)) &* 0x94D0_49BB_1331_11EB
      return x ^ (x >> 32)
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(mix) }
  }

  package struct GCPair {
    package let parent: CRDTElement
    package let child: GCChild
    package let removedAt: TimeTicket
    /// Where the child sits in its parent's arena, when known: a hint checked before use
    /// (lookups by id can walk long chains of split pieces).
    package var handle: Int32 = -1
  }

  package let object: CRDTObject
  // @exclusivity(unchecked) below: safe and measured as stated on ``CRDTElement``.
  /// Every container and counter by creation ticket, with its parent. Primitives are never the
  /// target of an operation, so they are not registered (this halves the cost of building
  /// arrays); tombstones of every kind are kept in `removed` with their parent.
  @exclusivity(unchecked) private(set) var registry = TicketMap<Entry>()
  /// Removed elements, in the order they were removed. A list, not a map: registering a
  /// tombstone is the common case (every overwrite makes one), finding one by ticket is rare
  /// (rollback, which takes the newest first) and GC walks them all anyway.
  @exclusivity(unchecked) private(set) var removed: [Entry] = []
  /// During a GC pass: the removed elements already purged (by identity: a copy an undo
  /// restored may carry the tickets of a tombstone's descendants), dropped from `removed` at the
  /// end of the pass. `removed` keeps them alive until then, so no identity is reused.
  @exclusivity(unchecked) private var purgedInPass: Set<ObjectIdentifier>?
  @exclusivity(unchecked) private var gcPairs = GCPairStore()
  /// Texts that may hold removed pieces (Yorkie's text-node GC pairs), purged or not: like a GC
  /// pair, a removed piece stays garbage until collected even when its text is gone. A text
  /// leaves the set when a pass finds none left.
  @exclusivity(unchecked) private var garbageTexts: [ObjectIdentifier: CRDTText] = [:]
  /// The text noted last while it is in `garbageTexts` (deletions come in runs on one text).
  @exclusivity(unchecked) private var lastGarbageText: ObjectIdentifier?
  /// Texts that may hold explicit liveness steps (`CRDTText+Liveness.swift`): a restore ran on
  /// them, or they arrived with some. Each GC pass compacts their steps, and those of the texts
  /// in `garbageTexts` (two concurrent removals make a list, on a piece then removed); a text
  /// leaves the set when it has none. Not journaled: an extra member only costs a look.
  private var textsWithSteps: [ObjectIdentifier: CRDTText] = [:]
  /// The text noted last while it is in `textsWithSteps` (undos and redos come in runs on one
  /// text: `undo_redo` paid a probe per redo without it).
  private var lastStepsText: ObjectIdentifier?
  /// Trees whose ordering log may hold operations (`CRDTTree+Ordering.swift`): each GC pass
  /// lets them forget the operations every replica has seen, and a tree leaves the set when its
  /// log is empty. Not journaled: an extra member only costs a look.
  private var orderedTrees: [ObjectIdentifier: CRDTTree] = [:]
  /// Copies that restored elements under their old identities, by creation ticket, with the
  /// ticket of the operation that placed each, until every replica has seen it
  /// (`CRDTRoot+RestoredCopies.swift`).
  var restoredCopies: [TimeTicket: TimeTicket] = [:]
  /// Elements that operations skipped inside those copies would have created, with the ticket
  /// that placed the copy.
  var skippedCreations: [TimeTicket: TimeTicket] = [:]
  /// The version vector of the change whose operations this replica is executing as its own
  /// (an update, an undo or redo, a replay of a pending or re-issued change), set by whoever
  /// executes them. A tree keeps its own operations in its ordering log with this vector: every
  /// other replica applies them with that change's vector, and a replay after a rewind must
  /// mean the same (`CRDTTree+Ordering.swift`). The tree's own tickets are not enough: a node
  /// purged since it was seen has left none (tree fuzz seed 12128313).
  package var ownChangeVector: VersionVector?
  /// Whether any restore is remembered (read before every remote operation).
  @inline(__always) package var hasRestoredCopies: Bool { !restoredCopies.isEmpty }

  /// Notes that `tree` applied an operation (its ordering log is not empty).
  package func noteOrderedTree(_ tree: CRDTTree) {
    if orderedTrees.isEmpty || orderedTrees[ObjectIdentifier(tree)] == nil { orderedTrees[ObjectIdentifier(tree)] = tree }
  }
  /// The document's size (Yorkie's `getDocSize()`): counted from scratch when the root is built,
  /// then kept up to date by every change (see `CRDTRoot+Size.swift`). Rollback restores it
  /// from the journal (``Journal/noteSizeChange(_:)``).
  package internal(set) var size = DocSize()
  /// How many of the tombstones in `removed` can hold something (objects, arrays, texts,
  /// trees). While there is none, nothing lies inside a removed element, and finding out where
  /// a change belongs (``isGarbage(_:)``) costs nothing.
  var removedHolders = 0

  /// The root of `object`'s element tree. `treeGarbage` holds, for trees a snapshot decoder
  /// built (``DocumentSnapshot/treeGarbage``), their ``CRDTTree/gcPairs()`` as found while
  /// building; any other tree is walked for them.
  package init(object: CRDTObject = CRDTObject(createdAt: .initial), treeGarbage: [ObjectIdentifier: [TreeGCPair]] = [:]) {
    self.object = object
    registry[object.createdAt] = Entry(element: object, parent: nil)
    var arrays: [CRDTArray] = []
    var texts: [CRDTText] = []
    var trees: [CRDTTree] = []
    // A ticket held by a tombstone's descendant and by a live element (a Yorkie peer's undo of
    // an array Remove: the copy keeps its descendants' tickets) names the live one.
    func visit(_ element: CRDTElement, parent: CRDTElement, hidden: Bool) {
      let kind = element.kind
      let hidden = hidden || element.isRemoved
      if kind.isRegistered && (!hidden || registry[element.createdAt] == nil) {
        registry[element.createdAt] = Entry(element: element, parent: parent)
      }
      // Rebuild garbage bookkeeping for a tree that arrived with tombstones (a snapshot): the
      // removed elements here, the node-level garbage of each kind below.
      if element.isRemoved { removed.append(Entry(element: element, parent: parent)) }
      switch kind {
      case .array(let array): arrays.append(array)
      case .text(let text): texts.append(text)
      case .tree(let tree): trees.append(tree)
      case .primitive, .object, .counter: break  // no node-level garbage
      }
      kind.forEachChild { visit($0, parent: element, hidden: hidden) }
    }
    object.forEachChild { visit($0, parent: object, hidden: false) }
    for array in arrays {
      for handle in array.deadPositions {
        let node = array.nodes[Int(handle)]
        registerGCPair(GCPair(parent: array, child: .arrayPosition(node.id), removedAt: node.removedAt ?? .initial))
      }
    }
    for text in texts {
      if !text.livenessSteps.isEmpty { noteLivenessSteps(of: text) }
      var handle = text.nodes[Int(CRDTText.head)].next
      while handle >= 0 {
        let node = text.nodes[Int(handle)]
        if node.isRemoved { noteTextGarbage(text) }
        if node.attributes >= 0 {
          for entry in text.attributeSets[Int(node.attributes)].entries where entry.isRemoved {
            registerGCPair(GCPair(parent: text, child: .textAttribute(node.id, entry.key), removedAt: entry.updatedAt))
          }
        }
        handle = node.next
      }
    }
    for tree in trees {
      for pair in treeGarbage[ObjectIdentifier(tree)] ?? tree.gcPairs() { registerGCPair(CRDTRoot.gcPair(pair, in: tree)) }
    }
    removedHolders = removed.reduce(0) { $0 + ($1.element.kind.holdsContent ? 1 : 0) }
    size = recomputedSize()
  }

  /// The GC pair of a tree's tombstone: a removed node (with its current removal ticket) or a
  /// removed attribute.
  package static func gcPair(_ pair: TreeGCPair, in tree: CRDTTree) -> GCPair {
    switch pair {
    case .node(let node):
      return GCPair(parent: tree, child: .treeNode(node.id), removedAt: node.removedAt ?? .initial)
    case .attribute(let node, let key, let removedAt):
      return GCPair(parent: tree, child: .treeAttribute(node.id, key), removedAt: removedAt)
    }
  }

  // MARK: Registry

  /// The container or counter created at `createdAt`, live or removed, if not purged.
  @inline(__always) package func element(_ createdAt: TimeTicket) -> CRDTElement? {
    registry[createdAt]?.element
  }

  /// Calls `body` with every registered container and counter (the root included), in no
  /// particular order: a walk that never visits the primitives.
  package func forEachContainer(_ body: (CRDTElement) -> Void) {
    for entry in registry.entries { body(entry.value.element) }
  }

  /// The number of registered containers and counters, the root included.
  package var elementCount: Int { registry.count }

  /// Registers `element` (and every container below it) as a child of `parent`, and adds its
  /// size to the document's as if it were not removed itself: a new element that arrives
  /// removed (a losing Set) is then registered removed, which moves it to garbage as any removal.
  @inline(__always) package func register(_ element: CRDTElement, parent: CRDTElement, journal: Journal) {
    journal.noteSizeChange(self)
    size += CRDTRoot.attachedSize(of: element, garbage: isGarbage(parent))
    if !element.kind.isRegistered { return }
    registry[element.createdAt] = Entry(element: element, parent: parent)
    registerDescendants(of: element)
    // A value that re-creates an element as it was (an undo, this replica's or a peer's) brings
    // its garbage along; a fresh value has none, and the walk is short.
    if element.kind.holdsContent { registerGarbage(within: element, journal: journal) }
  }

  private func registerDescendants(of element: CRDTElement) {
    element.kind.forEachChild { child in
      if !child.kind.isRegistered { return }
      registry[child.createdAt] = Entry(element: child, parent: element)
      registerDescendants(of: child)
    }
  }

  /// Removes `element` and everything below it from the registry and the tombstone set.
  ///
  /// - Returns: how many elements that is (Yorkie's GC count): the element and every descendant.
  @discardableResult
  package func deregister(_ element: CRDTElement) -> Int {
    var count = 0
    func drop(_ element: CRDTElement) {
      count += 1
      // Only this element's entry: a Yorkie peer's undo re-creates an array element from a
      // copy whose descendants keep their tickets, and the copy's entries answer to them now.
      if registry[element.createdAt]?.element === element { registry.remove(element.createdAt) }
      // A text out of the document holds no garbage of it (a rolled-back Set's value may have
      // brought removed pieces; `reattach` notes them again).
      if case .text(let text) = element.kind { forgetTextGarbage(text) }
      guard element.isRemoved else { return }  // only tombstones are in `removed`
      if purgedInPass != nil {
        purgedInPass!.insert(ObjectIdentifier(element))
      } else if let index = removed.lastIndex(where: { $0.element === element }) {
        if element.kind.holdsContent { removedHolders -= 1 }
        removed.remove(at: index)
      }
    }
    drop(element)
    element.forEachDescendant(drop)
    return count
  }

  /// Registers again a subtree that ``deregister(_:)`` took out (rollback of a Set that restored
  /// its identity): its containers in the registry, its tombstones as garbage. The size is the
  /// journal's to give back.
  package func reattach(_ element: CRDTElement, parent: CRDTElement) {
    func visit(_ element: CRDTElement, parent: CRDTElement) {
      if element.kind.isRegistered { registry[element.createdAt] = Entry(element: element, parent: parent) }
      if case .text(let text) = element.kind {
        if CRDTRoot.removedPieceCount(text) > 0 { noteTextGarbage(text) }
        if !text.livenessSteps.isEmpty { noteLivenessSteps(of: text) }
      }
      if element.isRemoved {
        removed.append(Entry(element: element, parent: parent))
        if element.kind.holdsContent { removedHolders += 1 }
      }
      element.kind.forEachChild { visit($0, parent: element) }
    }
    visit(element, parent: parent)
  }

  /// Records the garbage a new element brings inside it, so that collection finds it: removed
  /// elements below it, its arrays' dead positions, its texts' removed pieces and attributes, its
  /// trees' tombstones. A fresh value holds none; a value that restores an element as it was (a
  /// Yorkie peer's undo of a removal, or this replica's) holds what that element held. `element`'s
  /// own removal is its operation's to register.
  package func registerGarbage(within element: CRDTElement, journal: Journal) {
    func record(_ pair: GCPair) {
      let key = GCPairKey(parent: pair.parent.createdAt, child: pair.child)
      if let previous = replaceGCPair(pair, key: key) { journal.append(.root(.restoreGCPair(previous))) } else { journal.appendUnregister(key, parent: pair.parent) }
    }
    func visit(_ element: CRDTElement, parent: CRDTElement?) {
      if let parent, element.isRemoved {
        removed.append(Entry(element: element, parent: parent))
        if element.kind.holdsContent { removedHolders += 1 }
        journal.append(.root(.unregisterRemoved(element.createdAt)))
      }
      switch element.kind {
      case .array(let array):
        for handle in array.deadPositions {
          let node = array.nodes[Int(handle)]
          record(GCPair(parent: array, child: .arrayPosition(node.id), removedAt: node.removedAt ?? .initial, handle: handle))
        }
      case .text(let text):
        if !text.livenessSteps.isEmpty { noteLivenessSteps(of: text) }
        var handle = text.nodes[Int(CRDTText.head)].next
        while handle >= 0 {
          let node = text.nodes[Int(handle)]
          if node.isRemoved { noteTextGarbage(text) }
          if node.attributes >= 0 {
            for entry in text.attributeSets[Int(node.attributes)].entries where entry.isRemoved {
              record(GCPair(parent: text, child: .textAttribute(node.id, entry.key), removedAt: entry.updatedAt, handle: handle))
            }
          }
          handle = node.next
        }
      case .tree(let tree):
        for pair in tree.gcPairs() { record(CRDTRoot.gcPair(pair, in: tree)) }
      case .primitive, .object, .counter:
        break
      }
      element.kind.forEachChild { visit($0, parent: element) }
    }
    visit(element, parent: nil)
  }

  // MARK: Garbage

  /// Records a tombstone element for garbage collection: `element` was just removed (it was
  /// live, or registered as if it were), so its size moves to garbage.
  package func registerRemoved(_ element: CRDTElement, parent: CRDTElement, journal: Journal) {
    removed.append(Entry(element: element, parent: parent))
    if element.kind.holdsContent { removedHolders += 1 }
    journal.noteSizeChange(self)
    chargeRemoval(of: element, parent: parent)
  }

  /// Forgets a tombstone (rollback of a local removal: usually the newest one).
  package func unregisterRemoved(_ createdAt: TimeTicket) {
    if let index = removed.lastIndex(where: { $0.element.createdAt == createdAt }) {
      if removed[index].element.kind.holdsContent { removedHolders -= 1 }
      removed.remove(at: index)
    }
  }

  /// Notes that `text` now holds removed pieces (its garbage is found there).
  @inline(__always) package func noteTextGarbage(_ text: CRDTText) {
    let key = ObjectIdentifier(text)
    if key == lastGarbageText { return }
    if garbageTexts[key] == nil { garbageTexts[key] = text }
    lastGarbageText = key
  }

  /// Notes that `text` may hold explicit liveness steps (a restore ran on it).
  package func noteLivenessSteps(of text: CRDTText) {
    let key = ObjectIdentifier(text)
    if key == lastStepsText { return }
    if textsWithSteps[key] == nil { textsWithSteps[key] = text }
    lastStepsText = key
  }

  /// Stops tracking `text`'s removed pieces and liveness steps: the text left the document.
  private func forgetTextGarbage(_ text: CRDTText) {
    let key = ObjectIdentifier(text)
    garbageTexts[key] = nil
    textsWithSteps[key] = nil
    if key == lastGarbageText { lastGarbageText = nil }
    if key == lastStepsText { lastStepsText = nil }
  }

  /// The removed pieces of `text`, in text order.
  private static func removedPieceCount(_ text: CRDTText) -> Int {
    var count = 0
    var handle = text.arena[Int(CRDTText.head)].next
    while handle >= 0 {
      let piece = text.arena[Int(handle)]
      if piece.removal >= 0 { count += 1 }
      handle = piece.next
    }
    return count
  }

  /// Records node-level garbage.
  package func registerGCPair(_ pair: GCPair) {
    gcPairs[GCPairKey(parent: pair.parent.createdAt, child: pair.child)] = pair
  }

  /// Records node-level garbage and returns the pair it replaced, if any (one hash lookup).
  package func replaceGCPair(_ pair: GCPair, key: GCPairKey) -> GCPair? {
    gcPairs.updateValue(pair, forKey: key)
  }

  /// Forgets node-level garbage (rollback).
  package func unregisterGCPair(_ key: GCPairKey) {
    gcPairs[key] = nil
  }

  /// The registered pair for `key`, if any.
  package func gcPair(_ key: GCPairKey) -> GCPair? { gcPairs[key] }

  /// Bytes held by the GC pair store (its hash tables' capacities); benchmarks report it.
  package var gcPairMemoryFootprint: Int { gcPairs.memoryFootprint }

  /// Tombstones and dead nodes not yet purged, counted as Yorkie counts them: every removed
  /// element once, together with every element below a removed container, plus every GC pair
  /// (a removed text piece counts as one, as its pair does in Yorkie).
  package var garbageLength: Int {
    var seen = Set<TimeTicket>()
    for entry in removed {
      seen.insert(entry.element.createdAt)
      entry.element.forEachDescendant { seen.insert($0.createdAt) }
    }
    return seen.count + gcPairs.count + garbageTexts.values.reduce(0) { $0 + CRDTRoot.removedPieceCount($1) }
  }

  /// Verifies the garbage bookkeeping: every registered text that holds a removed piece is
  /// tracked for collection, and every tombstone of a registered tree has its GC pair.
  /// Returns the first violation.
  package func checkGarbageInvariants() -> String? {
    for (_, entry) in registry.entries {
      // A tree's tombstones and removed attributes are each a GC pair of the root.
      if case .tree(let tree) = entry.element.kind {
        for pair in tree.gcPairs() {
          let key = GCPairKey(parent: tree.createdAt, child: CRDTRoot.gcPair(pair, in: tree).child)
          if gcPairs[key] == nil { return "the tree \(tree.createdAt) holds garbage without a GC pair: \(key.child)" }
        }
      }
      // Text pieces are the one garbage kept in its element rather than as GC pairs.
      guard case .text(let text) = entry.element.kind, garbageTexts[ObjectIdentifier(text)] == nil else { continue }
      if CRDTRoot.removedPieceCount(text) > 0 { return "the text \(text.createdAt) holds removed pieces but is not tracked as garbage" }
    }
    return nil
  }

  /// Purges every tombstone whose removal `minSyncedVersionVector` covers.
  ///
  /// - Returns: the number of purged elements (a container counts with everything below it)
  ///   plus the number of purged GC pairs.
  package func garbageCollect(_ minSyncedVersionVector: VersionVector) -> Int {
    var count = 0
    var coverage: [ObjectIdentifier: Bool] = [:]
    func safe(_ array: CRDTArray, _ handle: Int32) -> Bool {
      let key = ObjectIdentifier(array)
      let allCovered = coverage[key] ?? {
        let value = array.allPositionsCovered(by: minSyncedVersionVector)
        coverage[key] = value
        return value
      }()
      return array.isSafeToPurge(handle, minSyncedVersionVector, allCovered: allCovered)
    }
    forgetSeenRestores(minSyncedVersionVector)
    // Sorted so that the work (not the result) is deterministic.
    purgedInPass = []
    defer {
      if let purged = purgedInPass, !purged.isEmpty {
        removed.removeAll { purged.contains(ObjectIdentifier($0.element)) }
        removedHolders = removed.reduce(0) { $0 + ($1.element.kind.holdsContent ? 1 : 0) }
      }
      purgedInPass = nil
    }
    for entry in removed.sorted(by: { $0.element.createdAt < $1.element.createdAt }) {
      let createdAt = entry.element.createdAt
      // An earlier purge in this pass may have taken this one along (it was inside it).
      guard purgedInPass?.contains(ObjectIdentifier(entry.element)) != true, let removedAt = entry.element.removedAt,
        minSyncedVersionVector.covers(removedAt)
      else { continue }
      if let parent = entry.parent {
        switch parent.kind {
        case .array(let array):
          // An array member goes with its position, which must be safe to purge too.
          guard let handle = array.position(ofElement: createdAt), safe(array, handle) else { continue }
        case .object: break
        case .primitive, .text, .counter, .tree: break  // hold no elements
        }
        purge(entry.element, from: parent)
      }
      // A tombstone and everything below it are garbage.
      size.gc -= CRDTRoot.subtreeSize(of: entry.element, garbage: true).gc
      count += deregister(entry.element)
    }
    // Trees forget the operations nothing older can come before any more; the nodes their
    // remaining operations name stay until those are forgotten too (they may be undone).
    var treePins: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
    for (key, tree) in orderedTrees {
      tree.forgetStableOperations(minSyncedVersionVector)
      if !tree.hasOrderLog { orderedTrees[key] = nil }
    }
    func pinned(_ node: CRDTTreeNode, of tree: CRDTTree) -> Bool {
      guard tree.hasOrderLog else { return false }
      let pins = treePins[ObjectIdentifier(tree)] ?? tree.orderLogPins()
      treePins[ObjectIdentifier(tree)] = pins
      return pins.contains(ObjectIdentifier(node))
    }
    for (key, pair) in gcPairs.entries where minSyncedVersionVector.covers(pair.removedAt) {
      switch pair.child {
      case .arrayPosition(let id):
        if case .array(let array) = pair.parent.kind, let handle = array.position(withID: id) {
          guard safe(array, handle) else { continue }
          let purged = array.deadPositionSize(handle)
          array.purgeDeadPosition(handle)
          chargePurge(purged, in: array)
        }
      case .textAttribute(let id, let name):
        if case .text(let text) = pair.parent.kind, let handle = text.piece(withID: id, hint: pair.handle),
          let purged = text.attributeTombstoneSize(handle, key: name, removedAt: pair.removedAt),
          text.purgeAttribute(handle, key: name, removedAt: pair.removedAt) {
          chargePurge(purged, in: text)
        }
      case .treeNode(let id):
        // The pair carries the removal it was registered with; a later concurrent removal
        // re-registers it with the newer ticket (see Operation+TreeEdit.swift).
        if case .tree(let tree) = pair.parent.kind, let node = tree.node(id) {
          // Its removed children wait for their own pairs, detached (`purge`), as Yorkie purges
          // them; an element still holding live content anywhere below (a concurrent insertion
          // its removal did not see, a node a restore revived under it) stays, so that no live
          // node is cut off the tree.
          guard !pinned(node, of: tree), !node.holdsLiveDescendant else { continue }
          // A pair follows its tombstone when a removal was made again with a newer ticket (an
          // operation applied again in ticket order, CRDTTree+Ordering.swift): it waits for it.
          if let removedAt = node.removedAt, !minSyncedVersionVector.covers(removedAt) {
            _ = gcPairs.updateValue(GCPair(parent: pair.parent, child: pair.child, removedAt: removedAt), forKey: key)
            continue
          }
          let purged = CRDTTree.nodeSize(node).gc
          if tree.purge(node) { chargePurge(purged, in: tree) }
        }
      case .treeAttribute(let id, let name):
        if case .tree(let tree) = pair.parent.kind, let node = tree.node(id) {
          guard !pinned(node, of: tree) else { continue }
          // As for a node: the pair follows the tombstone's current ticket.
          let removedAt = node.attributes?.entry(name).flatMap { $0.isRemoved ? $0.updatedAt : nil } ?? pair.removedAt
          if !minSyncedVersionVector.covers(removedAt) {
            _ = gcPairs.updateValue(GCPair(parent: pair.parent, child: pair.child, removedAt: removedAt), forKey: key)
            continue
          }
          if let purged = CRDTTree.attributeTombstoneSize(of: node, key: name, removedAt: removedAt),
            tree.purgeAttribute(of: node, key: name, removedAt: removedAt) {
            chargePurge(purged, in: tree)
          }
        }
      }
      gcPairs[key] = nil
      count += 1
    }
    // Removed text pieces, text by text (ordered so that the work is deterministic): the
    // covered ones that are safe to purge.
    for (key, text) in garbageTexts.sorted(by: { $0.value.createdAt < $1.value.createdAt }) {
      var covered: [Int32] = []
      var remaining = 0
      var handle = text.arena[Int(CRDTText.head)].next
      while handle >= 0 {
        let piece = text.arena[Int(handle)]
        if piece.removal >= 0, let removedAt = text.removedAt(handle) {
          remaining += 1
          if minSyncedVersionVector.covers(removedAt) { covered.append(handle) }
        }
        handle = piece.next
      }
      if !covered.isEmpty {
        let safety = text.safeToPurge(minSyncedVersionVector)
        let purgeable = covered.filter { safety[Int($0)] }
        #if CRDT_INTERNAL_CHECKS
        for handle in purgeable {
          precondition(text.isSafeToPurge(handle, minSyncedVersionVector), "GC safety table disagrees at \(text.id(of: handle))")
        }
        #endif
        text.collect(purgeable) { chargePurge(text.pieceSize($0).gc, in: text) }
        remaining -= purgeable.count
        count += purgeable.count
      }
      if remaining == 0 {
        garbageTexts[key] = nil
        if key == lastGarbageText { lastGarbageText = nil }
      }
    }
    compactLivenessSteps(minSyncedVersionVector)
    return count
  }

  /// Compacts the liveness steps of every text that may hold some (after the purges, which
  /// take the steps of the pieces they purge along).
  private func compactLivenessSteps(_ minimum: VersionVector) {
    // The two sets walked apart (a sync's collection copied no merged set): the noted texts,
    // then the garbage texts not among them, which join when they keep steps.
    for (key, text) in textsWithSteps where !text.compactLivenessSteps(minimum) { textsWithSteps[key] = nil }
    for (key, text) in garbageTexts where textsWithSteps[key] == nil && text.compactLivenessSteps(minimum) {
      textsWithSteps[key] = text
    }
    if let last = lastStepsText, textsWithSteps[last] == nil { lastStepsText = nil }
  }

  /// Deletes `element` from its container.
  package func purge(_ element: CRDTElement, from parent: CRDTElement) {
    switch parent.kind {
    case .object(let object): object.purge(element)
    case .array(let array): array.purge(element)
    case .primitive, .text, .counter, .tree: break  // hold no elements
    }
  }

  /// Whether the registered element `createdAt` is `ancestor` or lies below it (false when
  /// `createdAt` is unknown or purged).
  package func isElement(_ createdAt: TimeTicket, within ancestor: CRDTElement) -> Bool {
    var current = registry[createdAt]
    while let entry = current {
      if entry.element === ancestor { return true }
      guard let parent = entry.parent else { return false }
      current = registry[parent.createdAt]
    }
    return false
  }

  // MARK: Paths

  /// The JSON path of a container or counter: `$` for the root, `$.todos.0` below it. Array
  /// members are named by their index among live elements.
  package func path(of createdAt: TimeTicket) -> String? {
    var parts: [String] = []
    var current = createdAt
    while let entry = registry[current], let parent = entry.parent {
      switch parent.kind {
      case .object(let object):
        guard let key = object.key(of: current) else { return nil }
        parts.append(key)
      case .array(let array):
        guard let index = array.index(ofElement: current) else { return nil }
        parts.append(String(index))
      case .primitive, .text, .counter, .tree:
        return nil  // hold no elements
      }
      current = parent.createdAt
    }
    guard registry[current] != nil else { return nil }
    return (["$"] + parts.reversed()).joined(separator: ".")
  }
}

/// The registered node-level garbage, split over 64 dictionaries by hash so that growing
/// rehashes a 64th of the entries at a time: a single edit never pays for rehashing all the
/// garbage of a large document.
struct GCPairStore {
  private var shards = [[CRDTRoot.GCPairKey: CRDTRoot.GCPair]](repeating: [:], count: 64)
  private(set) var count = 0

  @inline(__always) private func shard(_ key: CRDTRoot.GCPairKey) -> Int { Int(key.mix >> 58) }

  subscript(key: CRDTRoot.GCPairKey) -> CRDTRoot.GCPair? {
    get { shards[shard(key)][key] }
    set {
      let index = shard(key)
      if let newValue {
        if shards[index].updateValue(newValue, forKey: key) == nil { count += 1 }
      } else if shards[index].removeValue(forKey: key) != nil {
        count -= 1
      }
    }
  }

  /// Sets the pair of `key` and returns the one it replaced.
  mutating func updateValue(_ value: CRDTRoot.GCPair, forKey key: CRDTRoot.GCPairKey) -> CRDTRoot.GCPair? {
    let previous = shards[shard(key)].updateValue(value, forKey: key)
    if previous == nil { count += 1 }
    return previous
  }

  /// Bytes held by the shards: every bucket holds a key and a value, plus an occupancy bit. A
  /// dictionary's `capacity` is 3/4 of its buckets, a power of two.
  var memoryFootprint: Int {
    let bucket = MemoryLayout<CRDTRoot.GCPairKey>.stride + MemoryLayout<CRDTRoot.GCPair>.stride
    return shards.reduce(0) { total, shard in
      guard shard.capacity > 0 else { return total }
      var buckets = 1
      while buckets * 3 / 4 < shard.capacity { buckets <<= 1 }
      return total + buckets * bucket + buckets / 8
    }
  }

  var entries: [(key: CRDTRoot.GCPairKey, value: CRDTRoot.GCPair)] {
    shards.flatMap { $0.map { (key: $0.key, value: $0.value) } }
  }
}
