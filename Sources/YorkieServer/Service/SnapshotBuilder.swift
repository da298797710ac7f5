import CRDT
import Foundation
import YorkieProtocol

/// Materializes documents with the `CRDT` module: the server's snapshots (yorkie-protocol.md
/// section 5.3, the snapshot branch of the pull).
enum SnapshotBuilder {
  /// What a job produced.
  struct Built: Sendable {
    /// The binary `Snapshot`.
    var data: [UInt8]
    /// The materialized document's version vector (keys: base64 actors).
    var versionVector: [String: Int64]
  }

  /// Runs `job`: loads its base snapshot, applies its changes in order, collects garbage with
  /// its minimum version vector, and encodes the result.
  ///
  /// - Throws: ``ServiceError`` (`internal`) when a stored change cannot be applied; the caller
  ///   then answers with changes instead.
  static func build(_ job: SnapshotJob) async throws(ServiceError) -> Built {
    // The stored snapshot is the answer when nothing came after it and nothing is to be
    // collected: decoding and encoding it again (tens of milliseconds for a large document)
    // would give the same content. An idle document's attaches take this path.
    if let base = job.base, job.changes.isEmpty, job.minVersionVector == nil {
      return Built(data: base.data, versionVector: base.versionVector)
    }
    do {
      let document = Document(key: "")
      if let base = job.base {
        let vector = try WireVersionVector(vector: base.versionVector).model("snapshot.versionVector")
        try await document.applyChangePack(ChangePack(
          key: "", checkpoint: .initial, changes: [], versionVector: vector, snapshot: Data(base.data)))
      }
      var changes: [Change] = []
      changes.reserveCapacity(job.changes.count)
      for (index, change) in job.changes.enumerated() { changes.append(try change.model("changes[\(index)]")) }
      if !changes.isEmpty {
        try await document.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: changes))
      }
      if let minimum = job.minVersionVector {
        let vector = try WireVersionVector(vector: minimum).model("minVersionVector")
        _ = await document.garbageCollect(minSyncedVersionVector: vector)
      }
      let data = await document.snapshot()
      let vector = await WireVersionVector(document.versionVector).vector
      return Built(data: Array(data), versionVector: vector)
    } catch let error as ServiceError {
      throw error
    } catch {
      throw ServiceError(.internal, "materializing document \(job.document.hex): \(error)", metadataCode: nil)
    }
  }
}
