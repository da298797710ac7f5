// Real-world editing traces (Joseph Gentle's josephg/editing-traces, CC BY 4.0; see
// Benchmarks/traces/README.md for sources and attribution), loaded from that folder.
//
// A trace's positions count Unicode code points; Yorkie's text offsets are UTF-16 code units.
// Loading converts every patch to UTF-16 by replaying it on a model of the document as it is
// at that point, and checks that the replay ends with the trace's `endContent`.
import Foundation

/// One edit, in UTF-16 code units: delete `deleteCount` units at `position`, then insert
/// `insert` there.
struct Patch: Sendable, Equatable {
  var position: Int
  var deleteCount: Int
  var insert: String
}

/// A trace with one editor: apply every patch of every transaction in order to `startContent`
/// and the result is `endContent`.
struct SequentialTrace: Sendable {
  var name: String
  var startContent: String
  var endContent: String
  var txns: [[Patch]]

  var patchCount: Int { txns.reduce(0) { $0 + $1.count } }
}

/// A transaction of a concurrent trace: its patches apply to the document as it is after
/// merging `parents` (indexes of earlier transactions; none = the empty document).
struct ConcurrentTxn: Sendable {
  var parents: [Int]
  var agent: Int
  var numChildren: Int
  var patches: [Patch]
}

/// A trace with several editors (agents). No two agents ever insert concurrently at the same
/// place, so every correct list CRDT that merges all transactions ends with `endContent`.
struct ConcurrentTrace: Sendable {
  var name: String
  var numAgents: Int
  var endContent: String
  var txns: [ConcurrentTxn]

  var patchCount: Int { txns.reduce(0) { $0 + $1.patches.count } }
}

enum Trace: Sendable {
  case sequential(SequentialTrace)
  case concurrent(ConcurrentTrace)
}

struct TraceError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

// MARK: - Files

enum TraceFiles {
  /// The in-repository folder, relative to the package root.
  static let defaultFolder = "Benchmarks/traces"

  /// Where the traces are: `$CRDT_TRACE_DIR` if set, else `Benchmarks/traces` in the package
  /// (found from this source file's path, then from the current directory).
  static func directory() throws -> URL {
    let fileManager = FileManager.default
    func isDirectory(_ url: URL) -> Bool {
      var flag: ObjCBool = false
      return fileManager.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
    if let override = overrideDirectory {
      let url = URL(fileURLWithPath: override, isDirectory: true)
      guard isDirectory(url) else { throw TraceError("CRDT_TRACE_DIR=\(override) is not a directory") }
      return url
    }
    // This file is <root>/Benchmarks/crdt-bench/Traces.swift when the binary was built; the
    // current directory is the package root under `swift run`.
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let currentDirectory = URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true)
    var candidates: [URL] = []
    for root in [packageRoot, currentDirectory] {
      let folder = root.appendingPathComponent(defaultFolder, isDirectory: true).standardizedFileURL
      if !candidates.contains(folder) { candidates.append(folder) }
    }
    if let found = candidates.first(where: isDirectory) { return found }
    throw TraceError("no \(defaultFolder) folder at \(candidates.map(\.path).joined(separator: " or "))")
  }

  /// `$CRDT_TRACE_DIR`, when set and not empty.
  static var overrideDirectory: String? {
    guard let value = ProcessInfo.processInfo.environment["CRDT_TRACE_DIR"], !value.isEmpty else { return nil }
    return value
  }

  /// Why the trace `name` cannot be read, in one line (nil when its file is there).
  static func missing(_ name: String) -> String? {
    let file = name + ".json.gz"
    let hint = overrideDirectory == nil ? " (set CRDT_TRACE_DIR)" : ""
    let folder: URL
    do {
      folder = try directory()
    } catch {
      return "trace file \(file) not found: \(error)\(hint)"
    }
    let fileManager = FileManager.default
    if fileManager.fileExists(atPath: folder.appendingPathComponent(file).path)
      || fileManager.fileExists(atPath: folder.appendingPathComponent(name + ".json").path) {
      return nil
    }
    return "trace file \(file) not found in \(folder.path)" + (overrideDirectory == nil ? hint : " (CRDT_TRACE_DIR)")
  }

  /// The traces in the folder: every `NAME.json.gz` or `NAME.json`, by name.
  static func names() throws -> [String] {
    let entries = try FileManager.default.contentsOfDirectory(atPath: try directory().path)
    var names = Set<String>()
    for entry in entries {
      if entry.hasSuffix(".json.gz") {
        names.insert(String(entry.dropLast(".json.gz".count)))
      } else if entry.hasSuffix(".json") {
        names.insert(String(entry.dropLast(".json".count)))
      }
    }
    return names.sorted()
  }

  /// The trace's JSON text, gunzipped when the file is `NAME.json.gz`.
  static func json(named name: String) throws -> Data {
    let folder = try directory()
    let gzipped = folder.appendingPathComponent(name + ".json.gz")
    let plain = folder.appendingPathComponent(name + ".json")
    if FileManager.default.fileExists(atPath: gzipped.path) {
      let compressed = try Data(contentsOf: gzipped)
      do {
        return try compressed.withUnsafeBytes { raw throws(InflateError) in
          try gunzipData(raw.bindMemory(to: UInt8.self))
        }
      } catch {
        throw TraceError("\(gzipped.path): \(error)")
      }
    }
    if FileManager.default.fileExists(atPath: plain.path) { return try Data(contentsOf: plain) }
    throw TraceError("no trace \"\(name)\" in \(folder.path) (looked for \(name).json.gz and \(name).json)")
  }
}

// MARK: - Loading

/// How long each step of loading a trace took, in seconds.
struct TraceLoadTimes: Sendable {
  var read = 0.0
  var parse = 0.0
  var replay = 0.0
  var total: Double { read + parse + replay }
}

enum TraceLoader {
  static func load(named name: String) throws -> Trace {
    try loadTimed(named: name).trace
  }

  static func sequential(named name: String) throws -> SequentialTrace {
    guard case .sequential(let trace) = try load(named: name) else {
      throw TraceError("\(name) is a concurrent trace, not a sequential one")
    }
    return trace
  }

  static func concurrent(named name: String) throws -> ConcurrentTrace {
    guard case .concurrent(let trace) = try load(named: name) else {
      throw TraceError("\(name) is a sequential trace, not a concurrent one")
    }
    return trace
  }

  /// Reads, gunzips, parses and converts a trace; throws when the file is malformed or the
  /// replay does not end with `endContent`.
  static func loadTimed(named name: String) throws -> (trace: Trace, times: TraceLoadTimes) {
    var times = TraceLoadTimes()
    var start = benchClock.now
    let json = try TraceFiles.json(named: name)
    times.read = (benchClock.now - start).seconds

    start = benchClock.now
    let raw: RawTrace
    do {
      raw = try JSONDecoder().decode(RawTrace.self, from: json)
    } catch {
      throw TraceError("\(name): malformed trace JSON: \(error)")
    }
    times.parse = (benchClock.now - start).seconds

    start = benchClock.now
    let trace: Trace
    do {
      if raw.kind == "concurrent" {
        trace = .concurrent(try concurrentTrace(name, raw))
      } else if raw.kind == nil || raw.kind == "sequential" {
        trace = .sequential(try sequentialTrace(name, raw))
      } else {
        throw TraceError("unknown trace kind \"\(raw.kind!)\"")
      }
    } catch let error as TraceError {
      throw TraceError("\(name): \(error)")
    }
    times.replay = (benchClock.now - start).seconds
    return (trace, times)
  }

  private static func sequentialTrace(_ name: String, _ raw: RawTrace) throws -> SequentialTrace {
    guard let startContent = raw.startContent else { throw TraceError("a sequential trace needs startContent") }
    var model = TraceTextModel(startContent)
    var txns: [[Patch]] = []
    txns.reserveCapacity(raw.txns.count)
    for (txnIndex, txn) in raw.txns.enumerated() {
      var patches: [Patch] = []
      patches.reserveCapacity(txn.patches.count)
      for (patchIndex, patch) in txn.patches.enumerated() {
        guard let (position, deleteCount) = model.splice(at: patch.position, deleting: patch.deleteCount,
                                                         inserting: patch.insert) else {
          throw TraceError("txn \(txnIndex) patch \(patchIndex): position \(patch.position) + delete \(patch.deleteCount) "
            + "does not fit the document's \(model.scalarCount) code points")
        }
        patches.append(Patch(position: position, deleteCount: deleteCount, insert: patch.insert))
      }
      txns.append(patches)
    }
    let units = model.units
    guard units.elementsEqual(raw.endContent.utf16) else {
      throw TraceError("replaying every patch does not give endContent: "
        + firstDifference(String(decoding: units, as: UTF16.self), raw.endContent))
    }
    return SequentialTrace(name: name, startContent: startContent, endContent: raw.endContent, txns: txns)
  }

  private static func concurrentTrace(_ name: String, _ raw: RawTrace) throws -> ConcurrentTrace {
    guard let numAgents = raw.numAgents, numAgents > 0 else { throw TraceError("a concurrent trace needs numAgents > 0") }
    var txns: [ConcurrentTxn] = []
    txns.reserveCapacity(raw.txns.count)
    var children = [Int](repeating: 0, count: raw.txns.count)
    for (index, txn) in raw.txns.enumerated() {
      guard let parents = txn.parents, let agent = txn.agent, let numChildren = txn.numChildren else {
        throw TraceError("txn \(index) lacks parents, agent or numChildren")
      }
      guard (0..<numAgents).contains(agent) else { throw TraceError("txn \(index): agent \(agent) of \(numAgents)") }
      for parent in parents {
        guard (0..<index).contains(parent) else { throw TraceError("txn \(index): parent \(parent) is not an earlier txn") }
        children[parent] += 1
      }
      guard Set(parents).count == parents.count else { throw TraceError("txn \(index): repeated parent") }
      txns.append(ConcurrentTxn(parents: parents, agent: agent, numChildren: numChildren,
                                patches: txn.patches.map { Patch(position: $0.position, deleteCount: $0.deleteCount, insert: $0.insert) }))
    }
    for (index, txn) in txns.enumerated() where txn.numChildren != children[index] {
      throw TraceError("txn \(index): numChildren \(txn.numChildren), but \(children[index]) txns name it as parent")
    }
    // Positions count code points; the replay converts them to UTF-16 and checks endContent.
    var trace = ConcurrentTrace(name: name, numAgents: numAgents, endContent: raw.endContent, txns: txns)
    try ConcurrentReplay.convertAndCheck(&trace)
    return trace
  }
}

// MARK: - JSON

private struct RawPatch: Decodable {
  let position: Int
  let deleteCount: Int
  let insert: String

  init(from decoder: any Decoder) throws {
    var fields = try decoder.unkeyedContainer()
    position = try fields.decode(Int.self)
    deleteCount = try fields.decode(Int.self)
    insert = try fields.decode(String.self)
    guard fields.isAtEnd else {
      throw DecodingError.dataCorruptedError(in: fields, debugDescription: "a patch has more than 3 fields")
    }
  }
}

private struct RawTxn: Decodable {
  let patches: [RawPatch]
  let parents: [Int]?
  let agent: Int?
  let numChildren: Int?

  private enum Key: String, CodingKey { case patches, parents, agent, numChildren }

  // Faster than the synthesized decoder's three decodeIfPresent calls per txn: sequential
  // traces have none of the concurrent fields.
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Key.self)
    patches = try fields.decode([RawPatch].self, forKey: .patches)
    if fields.contains(.agent) || fields.contains(.parents) || fields.contains(.numChildren) {
      parents = try fields.decodeIfPresent([Int].self, forKey: .parents)
      agent = try fields.decodeIfPresent(Int.self, forKey: .agent)
      numChildren = try fields.decodeIfPresent(Int.self, forKey: .numChildren)
    } else {
      (parents, agent, numChildren) = (nil, nil, nil)
    }
  }
}

private struct RawTrace: Decodable {
  let kind: String?
  let startContent: String?
  let endContent: String
  let numAgents: Int?
  let txns: [RawTxn]
}

// MARK: - Sequential replay

/// The document a sequential trace is replayed on: its UTF-16 code units in chunks of a few
/// hundred, each chunk also counting its Unicode scalars, so that a code-point position maps to
/// a UTF-16 offset by walking the chunk counts and (only in chunks with surrogate pairs)
/// scanning one chunk.
struct TraceTextModel {
  private var chunks: [[UInt16]] = [[]]
  private var unitCounts: [Int] = [0]
  private var scalarCounts: [Int] = [0]
  private(set) var utf16Count = 0
  private(set) var scalarCount = 0
  private static let splitSize = 512
  private static let maxChunk = 1024

  init(_ text: String) {
    _ = splice(at: 0, deleting: 0, inserting: text)
  }

  var units: [UInt16] { chunks.flatMap { $0 } }

  @inline(__always) private static func isHighSurrogate(_ unit: UInt16) -> Bool { unit & 0xFC00 == 0xD800 }

  /// Replaces `count` code points at code point `offset` with `text`; returns the UTF-16
  /// offset and the number of UTF-16 units deleted, or nil when the range is out of bounds.
  mutating func splice(at offset: Int, deleting count: Int, inserting text: String) -> (Int, Int)? {
    guard offset >= 0, count >= 0, count <= scalarCount - offset else { return nil }
    var (chunk, scalarIndex, index, before) = locate(offset)
    let utf16Offset = before + index
    var deleted = 0
    var remaining = count
    while remaining > 0 {
      let taken = min(remaining, scalarCounts[chunk] - scalarIndex)
      let end = unitIndex(of: scalarIndex + taken, in: chunk, from: (scalarIndex, index))
      if taken > 0 {
        chunks[chunk].removeSubrange(index..<end)
        unitCounts[chunk] -= end - index
        scalarCounts[chunk] -= taken
        deleted += end - index
        remaining -= taken
      }
      if unitCounts[chunk] == 0 && chunks.count > 1 {
        chunks.remove(at: chunk)
        unitCounts.remove(at: chunk)
        scalarCounts.remove(at: chunk)
        if chunk == chunks.count { chunk -= 1 }  // removed the last chunk: stay at its end
        scalarIndex = 0
        index = 0
      } else if remaining > 0 {
        chunk += 1
        scalarIndex = 0
        index = 0
      }
    }
    utf16Count -= deleted
    scalarCount -= count

    let insertUnits = text.utf16.count
    if insertUnits > 0 {
      if count > 0 { (chunk, _, index, _) = locate(offset) }
      chunks[chunk].insert(contentsOf: text.utf16, at: index)
      let insertScalars = insertUnits == 1 ? 1 : text.unicodeScalars.count
      unitCounts[chunk] += insertUnits
      scalarCounts[chunk] += insertScalars
      utf16Count += insertUnits
      scalarCount += insertScalars
      if unitCounts[chunk] > TraceTextModel.maxChunk { split(chunk) }
    }
    return (utf16Offset, deleted)
  }

  /// The chunk holding code point `offset` (or the end of the text), the code point's index in
  /// that chunk, its UTF-16 index there, and the UTF-16 units before the chunk.
  private func locate(_ offset: Int) -> (chunk: Int, scalarIndex: Int, index: Int, before: Int) {
    var rest = offset
    var before = 0
    var chunk = 0
    let last = chunks.count - 1
    while chunk < last && rest >= scalarCounts[chunk] {
      rest -= scalarCounts[chunk]
      before += unitCounts[chunk]
      chunk += 1
    }
    return (chunk, rest, unitIndex(of: rest, in: chunk, from: (0, 0)), before)
  }

  /// The UTF-16 index of code point `scalar` in a chunk, scanning on from a known pair of
  /// (code point, UTF-16) indexes.
  private func unitIndex(of scalar: Int, in chunk: Int, from known: (scalar: Int, unit: Int)) -> Int {
    if unitCounts[chunk] == scalarCounts[chunk] { return scalar }  // no surrogate pairs here
    return chunks[chunk].withUnsafeBufferPointer { units in
      var index = known.unit
      for _ in known.scalar..<scalar { index += TraceTextModel.isHighSurrogate(units[index]) ? 2 : 1 }
      return index
    }
  }

  /// Cuts an oversized chunk into chunks of about `splitSize` units, never inside a surrogate pair.
  private mutating func split(_ chunk: Int) {
    let units = chunks[chunk]
    var pieces: [[UInt16]] = []
    var scalars: [Int] = []
    var start = 0
    while start < units.count {
      var end = min(start + TraceTextModel.splitSize, units.count)
      if end < units.count && TraceTextModel.isHighSurrogate(units[end - 1]) { end += 1 }
      let piece = Array(units[start..<end])
      pieces.append(piece)
      scalars.append(piece.count - piece.reduce(0) { $0 + ($1 & 0xFC00 == 0xDC00 ? 1 : 0) })
      start = end
    }
    chunks.replaceSubrange(chunk...chunk, with: pieces)
    unitCounts.replaceSubrange(chunk...chunk, with: pieces.map(\.count))
    scalarCounts.replaceSubrange(chunk...chunk, with: scalars)
  }
}

/// An independent check of converted sequential patches: replays them, in UTF-16 units, on a
/// gap buffer (cheap for typing, which edits near the previous edit).
struct UTF16GapBuffer {
  private var storage: [UInt16]
  private var gapStart: Int
  private var gapEnd: Int

  init(_ text: String) {
    storage = Array(text.utf16)
    gapStart = storage.count
    storage += repeatElement(0, count: 4096)
    gapEnd = storage.count
  }

  var count: Int { storage.count - (gapEnd - gapStart) }
  var units: [UInt16] { Array(storage[..<gapStart]) + storage[gapEnd...] }

  /// Applies one patch; false when it does not fit the text.
  mutating func apply(_ patch: Patch) -> Bool {
    guard patch.position >= 0, patch.deleteCount >= 0, patch.deleteCount <= count - patch.position else { return false }
    let insert = patch.insert.utf16
    let insertCount = insert.count
    if gapEnd - gapStart < insertCount + patch.deleteCount {
      // Grow the gap: move the text after it to the end of a bigger buffer.
      let tail = storage.count - gapEnd
      let newCount = 2 * storage.count + insertCount
      var bigger = [UInt16](repeating: 0, count: newCount)
      bigger[..<gapStart] = storage[..<gapStart]
      bigger[(newCount - tail)...] = storage[gapEnd...]
      storage = bigger
      gapEnd = newCount - tail
    }
    storage.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      if patch.position < gapStart {  // text between the position and the gap moves after it
        let moved = gapStart - patch.position
        memmove(base + gapEnd - moved, base + patch.position, moved * 2)
        gapStart -= moved
        gapEnd -= moved
      } else if patch.position > gapStart {  // text between the gap and the position moves before it
        let moved = patch.position - gapStart
        memmove(base + gapStart, base + gapEnd, moved * 2)
        gapStart += moved
        gapEnd += moved
      }
    }
    gapEnd += patch.deleteCount
    for unit in insert {
      storage[gapStart] = unit
      gapStart += 1
    }
    return true
  }

  /// Throws unless replaying the converted patches of `trace` gives its `endContent`.
  static func check(_ trace: SequentialTrace) throws {
    var buffer = UTF16GapBuffer(trace.startContent)
    for (txnIndex, txn) in trace.txns.enumerated() {
      for (patchIndex, patch) in txn.enumerated() where !buffer.apply(patch) {
        throw TraceError("UTF-16 replay: txn \(txnIndex) patch \(patchIndex) does not fit the text")
      }
    }
    guard buffer.units.elementsEqual(trace.endContent.utf16) else {
      throw TraceError("UTF-16 replay does not give endContent: "
        + firstDifference(String(decoding: buffer.units, as: UTF16.self), trace.endContent))
    }
  }
}

// MARK: - Concurrent replay

/// Replays a concurrent trace on a minimal list CRDT, converting each patch's code-point
/// positions to UTF-16 offsets in the document its transaction saw, and checks that merging
/// everything gives `endContent`.
///
/// Every inserted code point is an item, kept in one global document order. An agent's
/// transactions must form a causal chain (each one has the agent's previous one among its
/// ancestors), so the set of transactions a transaction has seen is a version vector (how many
/// of each agent's transactions), and an item is visible at a version when its inserting
/// transaction is in it and none of its deleting transactions are. A new item goes right after
/// the visible item before it; items of concurrent transactions never sit in that gap, since no
/// two agents insert concurrently at the same place.
///
/// Items live in chunks that summarise which transactions touched them, so that a chunk
/// untouched by transactions outside the current version counts its visible items in O(1).
enum ConcurrentReplay {
  private struct Chunk {
    var agents: [Int32] = []
    var seqs: [Int32] = []
    var scalars: [UInt32] = []
    /// Per item and agent: the agent's sequence number of a transaction deleting it, or -1.
    var deletes: [Int32] = []
    /// Per agent: the largest sequence number of a transaction inserting or deleting items
    /// here, or -1. (`scalars` holds the items' code points, or UTF-16 units.)
    var maxInsert: [Int32]
    var maxDelete: [Int32]
    /// Items not deleted by anyone, and their UTF-16 length.
    var live = 0
    var liveUnits = 0

    init(agents: Int) {
      maxInsert = [Int32](repeating: -1, count: agents)
      maxDelete = [Int32](repeating: -1, count: agents)
    }

    var count: Int { seqs.count }

    /// Whether every transaction that touched this chunk is in `version`: then the items
    /// visible at `version` are exactly the live ones.
    func settled(at version: [Int32]) -> Bool {
      for agent in 0..<version.count where maxInsert[agent] >= version[agent] || maxDelete[agent] >= version[agent] {
        return false
      }
      return true
    }

    func visible(_ item: Int, at version: [Int32]) -> Bool {
      guard seqs[item] < version[Int(agents[item])] else { return false }
      let agentCount = version.count
      for agent in 0..<agentCount {
        let deleted = deletes[item * agentCount + agent]
        if deleted >= 0 && deleted < version[agent] { return false }
      }
      return true
    }
  }

  private static let maxChunk = 128

  /// Converts the trace's code-point positions to UTF-16 in place; throws when the replay
  /// does not end with `endContent`.
  static func convertAndCheck(_ trace: inout ConcurrentTrace) throws {
    let converted = try replay(trace, positionsInUTF16: false)
    for index in trace.txns.indices { trace.txns[index].patches = converted[index] }
  }

  /// Replays the trace with its positions counting code points, or (`positionsInUTF16`, to
  /// check converted patches) UTF-16 code units; returns every txn's patches in UTF-16 units.
  static func replay(_ trace: ConcurrentTrace, positionsInUTF16: Bool) throws -> [[Patch]] {
    let agentCount = trace.numAgents
    var chunks = [Chunk(agents: agentCount)]
    /// Per txn: the version vector including the txn itself.
    var versions: [[Int32]] = []
    versions.reserveCapacity(trace.txns.count)
    var txnsPerAgent = [Int32](repeating: 0, count: agentCount)
    var result: [[Patch]] = []
    result.reserveCapacity(trace.txns.count)

    /// An item is a code point, or a UTF-16 code unit with `positionsInUTF16`.
    func units(_ element: UInt32) -> Int { element > 0xFFFF ? 2 : 1 }

    /// Finds the item after `rank` visible items: (chunk, index in chunk, UTF-16 units before).
    /// With `rank` 0 that is the very start.
    func find(_ rank: Int, _ version: [Int32]) -> (chunk: Int, index: Int, units: Int) {
      var rest = rank
      var before = 0
      for chunk in chunks.indices {
        if rest == 0 { return (chunk, 0, before) }
        if chunks[chunk].settled(at: version) {
          if rest > chunks[chunk].live {
            rest -= chunks[chunk].live
            before += chunks[chunk].liveUnits
            continue
          }
        }
        for item in 0..<chunks[chunk].count where chunks[chunk].visible(item, at: version) {
          rest -= 1
          before += units(chunks[chunk].scalars[item])
          if rest == 0 { return (chunk, item + 1, before) }
        }
      }
      return (chunks.count, 0, before)  // past the end: rank is out of range
    }

    for txnIndex in trace.txns.indices {
      let txn = trace.txns[txnIndex]
      var version = [Int32](repeating: 0, count: agentCount)
      for parent in txn.parents {
        for agent in 0..<agentCount { version[agent] = max(version[agent], versions[parent][agent]) }
      }
      let seq = txnsPerAgent[txn.agent]
      guard version[txn.agent] == seq else {
        throw TraceError("txn \(txnIndex): agent \(txn.agent)'s previous txn is not among its ancestors")
      }
      txnsPerAgent[txn.agent] += 1
      version[txn.agent] = seq + 1  // a txn sees its own earlier patches
      let agent = txn.agent

      var converted: [Patch] = []
      for (patchIndex, patch) in txn.patches.enumerated() {
        guard patch.position >= 0, patch.deleteCount >= 0 else {
          throw TraceError("txn \(txnIndex) patch \(patchIndex): negative position or delete count")
        }
        var (chunk, index, position) = find(patch.position, version)
        guard chunk < chunks.count else {
          throw TraceError("txn \(txnIndex) patch \(patchIndex): position \(patch.position) is past the end of the document")
        }
        // Delete `deleteCount` visible items from there on.
        var remaining = patch.deleteCount
        var deletedUnits = 0
        var deleteChunk = chunk
        var item = index
        while remaining > 0 {
          guard deleteChunk < chunks.count else {
            throw TraceError("txn \(txnIndex) patch \(patchIndex): deleting \(patch.deleteCount) at \(patch.position) runs past the end")
          }
          if item == chunks[deleteChunk].count {
            deleteChunk += 1
            item = 0
            continue
          }
          if chunks[deleteChunk].visible(item, at: version) {
            let slot = item * agentCount + agent
            if chunks[deleteChunk].deletes[item * agentCount ..< (item + 1) * agentCount].allSatisfy({ $0 < 0 }) {
              chunks[deleteChunk].live -= 1
              chunks[deleteChunk].liveUnits -= units(chunks[deleteChunk].scalars[item])
            }
            chunks[deleteChunk].deletes[slot] = seq
            chunks[deleteChunk].maxDelete[agent] = max(chunks[deleteChunk].maxDelete[agent], seq)
            deletedUnits += units(chunks[deleteChunk].scalars[item])
            remaining -= 1
          }
          item += 1
        }
        // Insert right after the visible item before `position`.
        let scalars = positionsInUTF16 ? patch.insert.utf16.map(UInt32.init) : patch.insert.unicodeScalars.map(\.value)
        if !scalars.isEmpty {
          if index == 0 && chunk > 0 {  // append to the previous chunk rather than prepend here
            chunk -= 1
            index = chunks[chunk].count
          }
          var target = chunks[chunk]
          chunks[chunk] = Chunk(agents: 0)  // no copy-on-write while we edit `target`
          target.agents.insert(contentsOf: repeatElement(Int32(agent), count: scalars.count), at: index)
          target.seqs.insert(contentsOf: repeatElement(seq, count: scalars.count), at: index)
          target.scalars.insert(contentsOf: scalars, at: index)
          target.deletes.insert(contentsOf: repeatElement(-1, count: scalars.count * agentCount), at: index * agentCount)
          target.maxInsert[agent] = max(target.maxInsert[agent], seq)
          target.live += scalars.count
          target.liveUnits += scalars.reduce(0) { $0 + units($1) }
          if target.count > maxChunk {
            chunks.replaceSubrange(chunk...chunk, with: split(target, agents: agentCount))
          } else {
            chunks[chunk] = target
          }
        }
        converted.append(Patch(position: position, deleteCount: deletedUnits, insert: patch.insert))
      }
      result.append(converted)
      versions.append(version)
    }

    var final: [UInt16] = []
    for chunk in chunks {
      for item in 0..<chunk.count where chunk.deletes[item * agentCount ..< (item + 1) * agentCount].allSatisfy({ $0 < 0 }) {
        let element = chunk.scalars[item]
        if positionsInUTF16 {
          final.append(UInt16(truncatingIfNeeded: element))
        } else {
          final.append(contentsOf: Unicode.Scalar(element)!.utf16)
        }
      }
    }
    guard final.elementsEqual(trace.endContent.utf16) else {
      throw TraceError("merging every txn does not give endContent: "
        + firstDifference(String(decoding: final, as: UTF16.self), trace.endContent))
    }
    return result
  }

  /// Cuts a chunk into pieces of at most half the limit, with their summaries recomputed.
  private static func split(_ chunk: Chunk, agents agentCount: Int) -> [Chunk] {
    var pieces: [Chunk] = []
    var start = 0
    while start < chunk.count {
      let end = min(start + maxChunk / 2, chunk.count)
      var piece = Chunk(agents: agentCount)
      piece.agents = Array(chunk.agents[start..<end])
      piece.seqs = Array(chunk.seqs[start..<end])
      piece.scalars = Array(chunk.scalars[start..<end])
      piece.deletes = Array(chunk.deletes[start * agentCount ..< end * agentCount])
      for item in 0..<piece.count {
        let agent = Int(piece.agents[item])
        piece.maxInsert[agent] = max(piece.maxInsert[agent], piece.seqs[item])
        var live = true
        for other in 0..<agentCount where piece.deletes[item * agentCount + other] >= 0 {
          piece.maxDelete[other] = max(piece.maxDelete[other], piece.deletes[item * agentCount + other])
          live = false
        }
        if live {
          piece.live += 1
          piece.liveUnits += piece.scalars[item] > 0xFFFF ? 2 : 1
        }
      }
      pieces.append(piece)
      start = end
    }
    return pieces
  }
}

// MARK: - Command-line modes

/// `--check-traces`: loads every trace in the data folder (which replays it in code points,
/// converting to UTF-16, and checks `endContent`), replays the converted patches again in
/// UTF-16 units as an independent check, prints one line per trace; returns the exit status.
func checkTraces() -> Int32 {
  let names: [String]
  do {
    names = try TraceFiles.names()
  } catch {
    note("crdt-bench: \(error)")
    return 1
  }
  guard !names.isEmpty else {
    note("crdt-bench: no traces in \((try? TraceFiles.directory().path) ?? "the data folder")")
    return 1
  }
  var failed = 0
  for name in names {
    do {
      let (trace, times) = try TraceLoader.loadTimed(named: name)
      let kind: String, txns: Int, patches: Int, end: String
      let checkStart = benchClock.now
      switch trace {
      case .sequential(let trace):
        (kind, txns, patches, end) = ("sequential", trace.txns.count, trace.patchCount, trace.endContent)
        try UTF16GapBuffer.check(trace)
      case .concurrent(let trace):
        (kind, txns, patches, end) = ("concurrent(\(trace.numAgents) agents)", trace.txns.count, trace.patchCount, trace.endContent)
        _ = try ConcurrentReplay.replay(trace, positionsInUTF16: true)
      }
      let checkSeconds = (benchClock.now - checkStart).seconds
      func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
      print("\(name): ok \(kind), \(txns) txns, \(patches) patches, final \(end.unicodeScalars.count) code points "
        + "(\(end.utf16.count) UTF-16), load \(ms(times.total)) ms "
        + "(read+gunzip \(ms(times.read)), JSON \(ms(times.parse)), convert+check \(ms(times.replay))); "
        + "UTF-16 replay check \(ms(checkSeconds)) ms")
    } catch {
      print("\(name): FAILED \(error)")
      failed += 1
    }
    fflush(nil)
  }
  return failed == 0 ? 0 : 1
}

/// `--inflate FILE` (for testing the decoder): gunzips the file, prints the output's size,
/// CRC-32 and FNV-1a 64 hash, and the best and median time of several decodes.
func inflateFile(_ path: String) -> Int32 {
  guard let data = FileManager.default.contents(atPath: path) else {
    note("crdt-bench: cannot read \(path)")
    return 1
  }
  let input = [UInt8](data)
  var output: [UInt8] = []
  var times: [Double] = []
  let runs = input.count > 100_000 ? 11 : 3
  for _ in 0..<runs {
    let start = benchClock.now
    do {
      output = try gunzip(input)
    } catch {
      print("\(path): error: \(error)")
      return 1
    }
    times.append((benchClock.now - start).seconds)
  }
  times.sort()
  let crcStart = benchClock.now
  let crc = CRC32.checksum(output)
  let crcSeconds = (benchClock.now - crcStart).seconds
  var fnv: UInt64 = 0xCBF2_9CE4_8422_2325
  for byte in output { fnv = (fnv ^ UInt64(byte)) &* 0x100_0000_01B3 }
  print("\(path): bytes=\(output.count) crc32=\(String(format: "%08x", crc)) fnv1a64=\(String(fnv, radix: 16)) "
    + String(format: "best=%.2fms median=%.2fms runs=%d (%.0f MB/s out; crc32 alone %.2fms)",
             times[0] * 1000, times[times.count / 2] * 1000, runs, Double(output.count) / times[0] / 1e6, crcSeconds * 1000))
  return 0
}
