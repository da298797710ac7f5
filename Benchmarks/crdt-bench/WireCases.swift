import CRDT
import Foundation
import YorkieProtocol

// Wire-format workloads: changes to and from Connect-JSON, and Yorkie's binary Snapshot of a
// large document.

let wireCases: [BenchCase] = [
  encodeChangeCase(),
  decodePackCase(changes: 1000),
  decodeTreePackCase(changes: 1000),
  snapshotTraceCase(name: "snapshot_automerge_paper", trace: "automerge-paper"),
]

/// Changes a replica made by typing `count` characters into a text, one update each (after one
/// change that creates the text), with the text they leave.
func typedChanges(_ count: Int) -> (changes: [Change], text: String) {
  let box = BlockingBox<([Change], String)>()
  Task.detached {
    let doc = Document(key: "wire")
    try await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
    try! await doc.update { root, _ in _ = root.setNewText("text") }
    let alphabet = Array("the quick brown fox jumps over the lazy dog ")
    for i in 0..<count {
      try! await doc.update { root, _ in
        let text = root.text("text")!
        // Mostly typing at the end, sometimes in the middle, as people do.
        let at = i % 7 == 3 ? text.length / 2 : text.length
        try text.edit(at, at, String(alphabet[i % alphabet.count]))
      }
    }
    box.set((await doc.pendingChanges, await doc.textString() ?? ""))
  }
  return box.wait()
}

/// `wire_encode_change`: one single-character edit change to Connect-JSON bytes.
func encodeChangeCase() -> BenchCase {
  let iterations = 20_000
  return BenchCase(name: "wire_encode_change", ops: iterations, maxRepeats: 9,
                   summary: "encode a one-character text change as Connect-JSON") {
    let change = typedChanges(2).changes.last!
    return {
      var bytes = 0
      let start = benchClock.now
      for _ in 0..<iterations {
        bytes &+= WireChange(change).json.bytes.count
      }
      let seconds = (benchClock.now - start).seconds
      var checks = Checks()
      let encoded = WireChange(change).json.bytes
      let decoded = try? WireChange(jsonData: encoded).model("change")
      checks.expect(decoded == change, "the encoded change does not decode to itself")
      checks.expect(bytes == encoded.count * iterations, "encodings differ between runs")
      return checks.trial(seconds, [Field("bytes", .int(encoded.count))])
    }
  }
}

/// `wire_decode_pack_<n>`: a pack of `n` text changes (plus the one creating the text), as a
/// pull delivers it in Connect-JSON: parsed, converted and applied to a fresh replica.
func decodePackCase(changes count: Int) -> BenchCase {
  BenchCase(name: "wire_decode_pack_\(count)", ops: count, maxRepeats: 9,
            summary: "parse a Connect-JSON pull response of \(grouped(count)) text changes and apply it") {
    let (changes, text) = typedChanges(count)
    let pack = ChangePack(key: "wire", checkpoint: Checkpoint(serverSeq: Int64(changes.count), clientSeq: 0), changes: changes)
    let body = PushPullChangesResponse(changePack: WireChangePack(pack)).json.bytes
    return {
      await guarded {
        let doc = Document(key: "wire")
        try await doc.setActor(try ActorID(hex: "000000000000000000000002"))
        let start = benchClock.now
        let response = try PushPullChangesResponse(jsonData: body)
        guard let wire = response.changePack else { return .failed("the response has no change pack") }
        try await doc.applyChangePack(try wire.model())
        let seconds = (benchClock.now - start).seconds
        var checks = Checks()
        checks.expect(await doc.textString() == text, "the applied text differs from the source's")
        await checkInvariants(of: doc, &checks)
        return checks.trial(seconds, [Field("bytes", .int(body.count))])
      }
    }
  }
}

/// Changes a replica made by typing `count` characters into a tree's paragraph, one update each
/// (every tenth also styles the paragraph), after one change that creates the tree; with the
/// document's JSON they leave.
func typedTreeChanges(_ count: Int) -> (changes: [Change], json: String) {
  let box = BlockingBox<([Change], String)>()
  Task.detached {
    let doc = Document(key: "wire")
    try await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
    try! await doc.update { root, _ in _ = root.setNewTree("tree", .element("doc", children: [.element("p")])) }
    let alphabet = Array("the quick brown fox jumps over the lazy dog ")
    for i in 0..<count {
      try! await doc.update { root, _ in
        let tree = root.tree("tree")!
        // Inside the paragraph: mostly at its end, sometimes in its middle.
        let length = tree.size - 2
        let at = 1 + (i % 7 == 3 ? length / 2 : length)
        try tree.edit(at, at, [.text(String(alphabet[i % alphabet.count]))])
        if i % 10 == 9 { try tree.style(0, 1, ["n": .integer(Int32(i))]) }
      }
    }
    box.set((await doc.pendingChanges, await doc.toJSON()))
  }
  return box.wait()
}

/// `wire_decode_tree_pack_<n>`: ``decodePackCase(changes:)`` for tree edits and styles. The
/// line adds `decode_seconds`, the part spent decoding the JSON text into messages.
func decodeTreePackCase(changes count: Int) -> BenchCase {
  BenchCase(name: "wire_decode_tree_pack_\(count)", ops: count, maxRepeats: 9,
            summary: "parse a Connect-JSON pull response of \(grouped(count)) tree changes and apply it") {
    let (changes, json) = typedTreeChanges(count)
    let pack = ChangePack(key: "wire", checkpoint: Checkpoint(serverSeq: Int64(changes.count), clientSeq: 0), changes: changes)
    let body = PushPullChangesResponse(changePack: WireChangePack(pack)).json.bytes
    return {
      await guarded {
        let doc = Document(key: "wire")
        try await doc.setActor(try ActorID(hex: "000000000000000000000002"))
        let start = benchClock.now
        let response = try PushPullChangesResponse(jsonData: body)
        let decodeSeconds = (benchClock.now - start).seconds
        guard let wire = response.changePack else { return .failed("the response has no change pack") }
        try await doc.applyChangePack(try wire.model())
        let seconds = (benchClock.now - start).seconds
        var checks = Checks()
        checks.expect(await doc.toJSON() == json, "the applied tree differs from the source's")
        await checkInvariants(of: doc, &checks)
        return checks.trial(seconds, [Field("bytes", .int(body.count)), Field("decode_seconds", .double(decodeSeconds))])
      }
    }
  }
}

/// The document after a whole editing trace, garbage-collected: encoded as a snapshot, then
/// loaded into a fresh replica through a snapshot pack. `seconds` covers both; the line also
/// gives each part and the snapshot's size.
func snapshotTraceCase(name: String, trace traceName: String) -> BenchCase {
  BenchCase(name: name, ops: 1, maxRepeats: 200,
            summary: "snapshot the finished \(traceName) document and load it into a fresh replica",
            trace: traceName) {
    let prepared: (trace: SequentialTrace, doc: Document)? = {
      guard let trace = try? TraceLoader.sequential(named: traceName) else { return nil }
      let doc = Document(key: "trace")
      let box = BlockingBox<Bool>()
      Task.detached {
        try await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
        _ = try? await doc.benchTraceBatched(trace)
        _ = await doc.garbageCollect(minSyncedVersionVector: await doc.versionVector)
        box.set(true)
      }
      _ = box.wait()
      return (trace, doc)
    }()
    return {
      await guarded {
        guard let (trace, source) = prepared else { return .failed("cannot load trace \(traceName)") }
        let versionVector = await source.versionVector
        let encodeStart = benchClock.now
        let data = await source.snapshot()
        let encodeSeconds = (benchClock.now - encodeStart).seconds
        let target = Document(key: "trace")
        let pack = ChangePack(key: "trace", checkpoint: Checkpoint(serverSeq: 1, clientSeq: 0), changes: [],
                              versionVector: versionVector, snapshot: data)
        let loadStart = benchClock.now
        try await target.applyChangePack(pack)
        let loadSeconds = (benchClock.now - loadStart).seconds
        var checks = Checks()
        checks.expect(await target.textString() == trace.endContent, "the loaded text differs from the trace's endContent")
        checks.expect(await target.garbageLength == 0, "the loaded document has garbage")
        checks.expect(await target.snapshot() == data, "re-encoding the loaded document gives other bytes")
        await checkInvariants(of: target, &checks)
        return checks.trial(encodeSeconds + loadSeconds, [
          Field("encode_seconds", .double(rounded(encodeSeconds, significant: 4))),
          Field("load_seconds", .double(rounded(loadSeconds, significant: 4))),
          Field("bytes", .int(data.count)),
        ])
      }
    }
  }
}
