import CRDT
import Foundation

// Wire-format workloads: Yorkie's binary Snapshot of a large document.

let wireCases: [BenchCase] = [
  snapshotTraceCase(name: "snapshot_automerge_paper", trace: "automerge-paper"),
]

/// The document after a whole editing trace, garbage-collected: encoded as a snapshot, then
/// loaded into a fresh replica through a snapshot pack. `seconds` covers both; the line also
/// gives each part and the snapshot's size.
func snapshotTraceCase(name: String, trace traceName: String) -> BenchCase {
  BenchCase(name: name, ops: 1, maxRepeats: 9) {
    let prepared: (trace: SequentialTrace, doc: Document)? = {
      guard let trace = try? TraceLoader.sequential(named: traceName) else { return nil }
      let doc = Document(key: "trace")
      let box = BlockingBox<Bool>()
      Task.detached {
        await doc.setActor(try! ActorID(hex: "000000000000000000000001"))
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
