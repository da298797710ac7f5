@testable import CRDT
import Foundation
import Testing

// # Fuzzing a Tree shared by several documents
//
// Three to five `Document`s (actors 000…001, 000…002, …) share one tree, `$.t`, which the
// first creates as `<doc><p>ab</p><p>cd</p></doc>` and everyone receives. Each step is one of:
//
// - a local update on one replica making 1–3 random tree calls through the public API (insert
//   text at an index, insert a paragraph by path, delete a range, split a paragraph, merge two
//   paragraphs across their boundary, style or unstyle a paragraph), drawn from the mix the test
//   names; a call that throws fails its update, which must leave the replica exactly as it was
//   (JSON, snapshot bytes, pending changes);
// - a delivery to one replica of some of another author's changes it lacks, in the author's
//   order, sometimes with changes it already applied repeated (a repeat changes nothing), and
//   sometimes out of causal order (refused with `changeNotReady`, changing nothing);
// - an undo or redo on one replica (a quarter of the local steps; `CRDT_TREE_HISTORY=0`
//   makes them updates), a local change like any other;
// - a snapshot of a replica loaded into a fresh document, which must show the same JSON;
// - at the end of every round, a full exchange in random order, after which every replica
//   shows the same JSON and tree XML; then, now and then, garbage collection on every replica
//   with the minimum of their vectors, which must leave them equal.
//
// After every step every replica's `checkInvariants()` is nil (the tree's index structure, its
// registry and its GC pairs included). `CRDT_SEED=N` replays one seed; `CRDT_LONG_TESTS=k`
// runs k times as many.

/// The tree calls the fuzz draws from.
enum TreeFuzzCall: CaseIterable, Sendable {
  case insertText, insertParagraph, delete, deleteInText, replaceInText, split, merge, style, removeStyle
}

/// One replica's log of its own changes, and how many of each author's changes each replica applied.
private final class TreeExchange {
  var log: [[Change]]
  var applied: [[Int]]

  init(count: Int) {
    log = Array(repeating: [], count: count)
    applied = Array(repeating: Array(repeating: 0, count: count), count: count)
  }
}

@Suite("Tree replicas fuzz")
struct TreeReplicaFuzzTests {
  /// `CRDT_TREE_TRACE=1` prints every call, delivery and resulting XML.
  static let tracing = ProcessInfo.processInfo.environment["CRDT_TREE_TRACE"] != nil
  /// `CRDT_TREE_TRACE=nodes` also prints every node (tombstones too) after each step.
  static let tracingNodes = ProcessInfo.processInfo.environment["CRDT_TREE_TRACE"] == "nodes"
  /// Undo and redo steps, unless `CRDT_TREE_HISTORY=0`.
  static let replaysHistory = ProcessInfo.processInfo.environment["CRDT_TREE_HISTORY"] != "0"

  /// The positions a random call needs, read from the tree inside the update.
  private struct Shape {
    /// For each root child that is an element: its start index and its text length (nil when it
    /// does not hold only text).
    var blocks: [(start: Int, textLength: Int?)] = []
    var size = 0

    init(_ tree: JSONTree) {
      size = tree.size
      guard case .element(_, _, let children) = tree.root else { return }
      var index = 0
      for child in children {
        switch child {
        case .text(let value):
          index += value.utf16.count
        case .element(_, _, let grandchildren):
          var length: Int? = 0
          var total = 0
          for grandchild in grandchildren {
            switch grandchild {
            case .text(let value): total += value.utf16.count; length? += value.utf16.count
            case .element: length = nil; total += TreeReplicaFuzzTests.size(of: grandchild)
            }
          }
          blocks.append((index, length))
          index += total + 2
        }
      }
    }
  }

  static func size(of node: TreeNode) -> Int {
    switch node {
    case .text(let value): return value.utf16.count
    case .element(_, _, let children): return 2 + children.reduce(0) { $0 + size(of: $1) }
    }
  }

  /// Makes one random call on `tree`; throws what the call throws.
  private static func call(_ kind: TreeFuzzCall, on tree: JSONTree, random: inout SeededRandom) throws {
    let shape = Shape(tree)
    let textBlock = shape.blocks.filter { $0.textLength != nil }.randomElement(using: &random)
    switch kind {
    case .insertText:
      if let block = textBlock, Bool.random(using: &random) {
        let offset = Int.random(in: 0...block.textLength!, using: &random)
        let text = TreeNode.text(String("xyz".randomElement(using: &random)!))
        try checkInsert(text, at: block.start + 1 + offset, on: tree) { try tree.edit(block.start + 1 + offset, block.start + 1 + offset, [text]) }
      } else {
        let index = Int.random(in: 0...shape.size, using: &random)
        try checkInsert(.text("w"), at: index, on: tree) { try tree.edit(index, index, [.text("w")]) }
      }
    case .insertParagraph:
      let position = Int.random(in: 0...shape.blocks.count, using: &random)
      let paragraph = TreeNode.element("p", children: [.text("n")])
      try checkInsert(paragraph, at: try tree.pathToIndex([position]), on: tree) {
        try tree.editByPath([position], [position], [paragraph])
      }
    case .deleteInText, .replaceInText:
      // A range inside one paragraph's text (a range across tags is a merge).
      guard let block = textBlock, block.textLength! > 0 else { return }
      let from = Int.random(in: 0..<block.textLength!, using: &random)
      let to = Int.random(in: (from + 1)...min(block.textLength!, from + 3), using: &random)
      try tree.edit(block.start + 1 + from, block.start + 1 + to, kind == .replaceInText ? [.text("r")] : [])
    case .delete:
      let from = Int.random(in: 0...shape.size, using: &random)
      let to = Int.random(in: from...min(shape.size, from + 4), using: &random)
      try tree.edit(from, to)
    case .split:
      guard let block = textBlock else { return }
      let offset = Int.random(in: 0...block.textLength!, using: &random)
      try tree.edit(block.start + 1 + offset, block.start + 1 + offset, splitLevel: 1)
    case .merge:
      guard shape.blocks.count >= 2 else { return }
      let first = Int.random(in: 0..<(shape.blocks.count - 1), using: &random)
      let end = shape.blocks[first + 1].start - 1
      try tree.edit(end, end + 2)
    case .style:
      guard let block = shape.blocks.randomElement(using: &random) else { return }
      try tree.style(block.start, block.start + 1, ["k": .integer(Int32.random(in: 0...9, using: &random))])
    case .removeStyle:
      guard let block = shape.blocks.randomElement(using: &random) else { return }
      try tree.removeStyle(block.start, block.start + 1, keys: ["k"])
    }
  }

  /// The tree as one token per index: an opening or closing tag, or one UTF-16 unit of text.
  private static func tokens(_ tree: JSONTree) -> [String] {
    func append(_ node: TreeNode, to tokens: inout [String]) {
      switch node {
      case .text(let value): tokens += value.utf16.map { "\($0)" }
      case .element(let type, _, let children):
        tokens.append("<\(type)")
        for child in children { append(child, to: &tokens) }
        tokens.append("</\(type)")
      }
    }
    var tokens: [String] = []
    guard case .element(_, _, let children) = tree.root else { return tokens }
    for child in children { append(child, to: &tokens) }
    return tokens
  }

  /// Runs `insert`, which inserts `content` at `index` locally, and records an issue unless the
  /// content's tokens now start at that index with everything else unchanged around it.
  private static func checkInsert(_ content: TreeNode, at index: Int, on tree: JSONTree, _ insert: () throws -> Void) throws {
    let before = tokens(tree)
    try insert()
    var inserted: [String] = []
    switch content {
    case .text(let value): inserted = value.utf16.map { "\($0)" }
    case .element(let type, _, let children):
      inserted = ["<\(type)"] + children.flatMap { child -> [String] in
        guard case .text(let value) = child else { return [] }
        return value.utf16.map { "\($0)" }
      } + ["</\(type)"]
    }
    let expected = Array(before[..<index]) + inserted + Array(before[index...])
    let after = tokens(tree)
    if after != expected { Issue.record("an insert at \(index) landed elsewhere: \(tree.xml)") }
  }

  private static func state(_ doc: Document) async -> (json: String, snapshot: Data, pending: Int) {
    (await doc.toJSON(), await doc.snapshot(), await doc.pendingChanges.count)
  }

  private static func checkInvariants(_ docs: [Document], _ context: @autoclosure () -> String) async {
    for (index, doc) in docs.enumerated() {
      if let problem = await doc.checkInvariants() {
        Issue.record("\(context()): replica \(index): \(problem)")
      }
      if tracingNodes { print("  nodes of replica \(index):\n" + (await doc.debugTreeNodes("$.t"))) }
    }
  }

  /// Delivers author `a`'s next changes that replica `r` lacks (up to `count`), sometimes with a
  /// repeat of one it has; returns whether anything new was applied.
  private static func deliver(_ exchange: TreeExchange, to r: Int, from a: Int, count: Int, docs: [Document],
                              random: inout SeededRandom, context: String) async throws -> Bool {
    let start = exchange.applied[r][a]
    let end = start + min(exchange.log[a].count - start, count)
    guard start < end else { return false }
    var batch = Array(exchange.log[a][start..<end])
    if start > 0, Int.random(in: 0..<4, using: &random) == 0 {
      batch.insert(exchange.log[a][Int.random(in: 0..<start, using: &random)], at: 0)
    }
    let before = await state(docs[r])
    do {
      try await docs[r].applyChanges(batch)
      exchange.applied[r][a] = end
      if tracing {
        print("  deliver \(a)→\(r) \(batch.map { "\($0.id.lamport)" }) ⇒ \(try await docs[r].tree(atPath: "$.t")?.xml ?? "")")
        if let problem = await docs[r].checkInvariants() { print("  !! \(problem)") }
      }
      return true
    } catch let error as YorkieError where error.code == .changeNotReady {
      // The author's changes depend on changes of others this replica lacks: refused whole.
      if tracing { print("  refused \(a)→\(r) \(batch.map { "\($0.id.lamport)" }): \(error)") }
      let after = await state(docs[r])
      #expect(after.json == before.json && after.snapshot == before.snapshot && after.pending == before.pending,
              "\(context): a refused delivery changed replica \(r)")
      return false
    }
  }

  /// Delivers everything until every replica has every change, in random order. Changes go one
  /// at a time: a batch is refused whole when any of its changes is not ready, and two authors'
  /// batches can each wait for the other's (a full-log batch would then never be delivered).
  private static func exchangeAll(_ exchange: TreeExchange, docs: [Document], random: inout SeededRandom, context: String) async throws {
    var progress = true
    while progress {
      progress = false
      for r in docs.indices.shuffled(using: &random) {
        for a in docs.indices.shuffled(using: &random) where a != r {
          while try await deliver(exchange, to: r, from: a, count: 1, docs: docs, random: &random, context: context) {
            progress = true
          }
        }
      }
    }
    for r in docs.indices {
      for a in docs.indices where a != r && exchange.applied[r][a] != exchange.log[a].count {
        Issue.record("\(context): a full exchange left replica \(r) with \(exchange.applied[r][a]) of author \(a)'s \(exchange.log[a].count) changes")
      }
    }
  }

  private static func run(seed: UInt64, mix: [TreeFuzzCall], steps: Int = 60) async throws {
    print("tree fuzz seed \(seed) mix \(mix)")
    var random = SeededRandom(seed: seed)
    let docs = try await makeReplicas(Int.random(in: 3...5, using: &random))
    let exchange = TreeExchange(count: docs.count)
    try await docs[0].update { root, _ in
      _ = root.setNewTree("t", .element("doc", children: [.element("p", children: [.text("ab")]), .element("p", children: [.text("cd")])]))
    }
    exchange.log[0] = await docs[0].pendingChanges
    try await exchangeAll(exchange, docs: docs, random: &random, context: "seed \(seed) setup")
    var rounds = 0
    for step in 0..<steps {
      let context = "seed \(seed) step \(step)"
      let r = Int.random(in: 0..<docs.count, using: &random)
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5 where TreeReplicaFuzzTests.replaysHistory && Int.random(in: 0..<4, using: &random) == 0:
        // An undo or redo: a local change like any other, which must converge.
        let pending = await docs[r].pendingChanges.count
        let undoes = Bool.random(using: &random)
        if tracing { print("  r\(r) \(undoes ? "undo" : "redo") on \(try await docs[r].tree(atPath: "$.t")?.xml ?? "")") }
        do {
          if undoes { try await docs[r].undo() } else { try await docs[r].redo() }
        } catch let error as YorkieError where error.code == .nothingToUndo || error.code == .nothingToRedo {}
        let changes = await docs[r].pendingChanges
        if changes.count > pending { exchange.log[r].append(changes.last!) }
      case 0..<5:
        let before = await state(docs[r])
        let calls = (0..<Int.random(in: 1...3, using: &random)).map { _ in mix.randomElement(using: &random)! }
        var callRandom = SeededRandom(seed: random.next())
        if tracing { print("  r\(r) snapshot before the update: \(before.snapshot.base64EncodedString())") }
        do {
          try await docs[r].update { root, _ in
            guard let tree = root.tree("t") else { throw YorkieError(.elementNotFound, "no tree") }
            for call in calls {
              if tracing { print("  r\(r) \(call) on \(tree.xml)") }
              try TreeReplicaFuzzTests.call(call, on: tree, random: &callRandom)
            }
          }
          if tracing { print("  r\(r) ⇒ \(try await docs[r].tree(atPath: "$.t")?.xml ?? "")") }
          let pending = await docs[r].pendingChanges
          if pending.count > before.pending { exchange.log[r].append(pending.last!) }
        } catch is YorkieError {
          let after = await state(docs[r])
          #expect(after.json == before.json && after.snapshot == before.snapshot && after.pending == before.pending,
                  "\(context): a failed update changed replica \(r)")
        }
      case 5..<8:
        let a = Int.random(in: 0..<docs.count, using: &random)
        if a != r {
          _ = try await deliver(exchange, to: r, from: a, count: Int.random(in: 1...3, using: &random), docs: docs,
                                random: &random, context: context)
        }
      case 8:
        let copy = Document(key: "doc")
        try await copy.applyChangePack(ChangePack(key: "doc", checkpoint: .initial, changes: [], snapshot: await docs[r].snapshot()))
        let copied = await copy.toJSON()
        let original = await docs[r].toJSON()
        #expect(copied == original, "\(context): a snapshot of replica \(r) shows another document:\n\(copied)\n\(original)")
      default:
        rounds += 1
        try await exchangeAll(exchange, docs: docs, random: &random, context: context)
        let json = await docs[0].toJSON()
        for (index, doc) in docs.enumerated().dropFirst() {
          let other = await doc.toJSON()
          #expect(other == json, "\(context): replica \(index) diverges from replica 0:\n\(other)\n\(json)")
        }
        if tracing { print("  exchanged: \(json == (await docs.last!.toJSON()) ? "equal" : "DIVERGED")") }
        if Bool.random(using: &random) && ProcessInfo.processInfo.environment["CRDT_TREE_NOGC"] == nil {
          var minimum = await docs[0].versionVector
          for doc in docs.dropFirst() { minimum = minimum.minimum(with: await doc.versionVector) }
          for doc in docs { _ = await doc.garbageCollect(minSyncedVersionVector: minimum) }
          for (index, doc) in docs.enumerated() {
            #expect(await doc.toJSON() == json, "\(context): garbage collection changed replica \(index)")
          }
        }
      }
      await checkInvariants(docs, context)
      if tracing { print("  -- end of step \(step)") }
    }
    try await exchangeAll(exchange, docs: docs, random: &random, context: "seed \(seed) end")
    let json = await docs[0].toJSON()
    for (index, doc) in docs.enumerated().dropFirst() {
      #expect(await doc.toJSON() == json, "seed \(seed) end: replica \(index) diverges from replica 0")
    }
    await checkInvariants(docs, "seed \(seed) end")
    print("tree fuzz seed \(seed) done: \(docs.count) replicas, \(exchange.log.map(\.count)) changes, \(rounds) rounds, \(json.utf8.count) bytes")
  }

  /// Concurrent splits and merges, which Yorkie's rules alone do not converge under: applied in
  /// ticket order here (CRDTTree+Ordering.swift).
  @Test("replicas splitting, merging and deleting across paragraphs converge", arguments: SeededRandom.seeds(6, base: 35_000))
  func splitsAndMerges(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: [.insertText, .insertParagraph, .split, .merge, .delete])
  }

  @Test("replicas making every kind of tree edit converge",
        arguments: SeededRandom.seeds(ProcessInfo.processInfo.environment["CRDT_TREE_FUZZ_SEEDS"].flatMap { Int($0) } ?? 6, base: 36_000))
  func everything(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: TreeFuzzCall.allCases)
  }

  /// Seeds of the previous test that once diverged, each kept with what it found: 12128313, a
  /// replica's own deletion replayed after an older undo's recreation with a vector read from
  /// the tree's tickets, which a purge had thinned.
  @Test("replicas making every kind of tree edit converge: former divergences", arguments: [12_128_313] as [UInt64])
  func formerDivergences(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: TreeFuzzCall.allCases)
  }

  @Test("replicas inserting text and paragraphs converge", arguments: SeededRandom.seeds(4, base: 31_000))
  func inserts(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: [.insertText, .insertParagraph])
  }

  @Test("replicas inserting, deleting and replacing text converge", arguments: SeededRandom.seeds(4, base: 33_000))
  func edits(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: [.insertText, .insertParagraph, .deleteInText, .replaceInText])
  }

  @Test("replicas editing text and styling converge", arguments: SeededRandom.seeds(4, base: 34_000))
  func editsAndStyles(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: [.insertText, .insertParagraph, .deleteInText, .replaceInText, .style, .removeStyle])
  }

  @Test("replicas inserting and styling converge", arguments: SeededRandom.seeds(4, base: 32_000))
  func styles(seed: UInt64) async throws {
    try await TreeReplicaFuzzTests.run(seed: seed, mix: [.insertText, .insertParagraph, .style, .removeStyle])
  }
}
