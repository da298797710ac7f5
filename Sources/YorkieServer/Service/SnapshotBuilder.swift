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
    /// The document the build materialized, as a cache entry (at the job's base and end), or
    /// the entry the build was given when it answered with the stored snapshot as is; `nil`
    /// when there is none.
    var materialized: MaterializedDocuments.Entry?
    /// How many elements and nodes the job's garbage collection purged: with any, the
    /// materialized document is no longer its base plus its changes (see
    /// ``MaterializedDocuments``).
    var collected = 0
    /// Whether the build started from the entry it was given.
    var reused = false
  }

  /// Runs `job`: loads its base snapshot, applies its changes in order, collects garbage with
  /// its minimum version vector, and encodes the result.
  ///
  /// - Parameter cached: The document's materialized entry, taken out of the cache by the
  ///   caller. When it matches the job (the same base, no further than the job's end) the
  ///   build starts from it, applying only the changes after it; it is then changed in place
  ///   (and returned in ``Built/materialized``).
  /// - Throws: ``ServiceError`` (`internal`) when a stored change cannot be applied; the caller
  ///   then answers with changes instead.
  static func build(_ job: SnapshotJob, from cached: MaterializedDocuments.Entry? = nil) async throws(ServiceError) -> Built {
    // The stored snapshot is the answer when nothing came after it and nothing is to be
    // collected: decoding and encoding it again (tens of milliseconds for a large document)
    // would give the same content. An idle document's attaches take this path.
    if let base = job.base, job.changes.isEmpty, job.minVersionVector == nil {
      return Built(data: base.data, versionVector: base.versionVector, materialized: cached)
    }
    do {
      let baseSeq = job.base?.serverSeq ?? 0
      let through = baseSeq + Int64(job.changes.count)
      let document: Document
      var first = 0
      var reused = false
      if let cached, cached.matches(baseSeq: baseSeq, base: job.base?.data, through: through) {
        document = cached.document
        first = Int(cached.through - baseSeq)
        reused = true
      } else {
        document = Document(key: "")
        if let base = job.base {
          let vector = try WireVersionVector(vector: base.versionVector).model("snapshot.versionVector")
          try await document.applyChangePack(ChangePack(
            key: "", checkpoint: .initial, changes: [], versionVector: vector, snapshot: Data(base.data)))
        }
      }
      // The root's encoding stays valid while nothing but presences changes.
      var rootField = reused ? cached?.rootField : nil
      var changes: [Change] = []
      changes.reserveCapacity(job.changes.count - first)
      for index in first..<job.changes.count {
        let change = try job.changes[index].model("changes[\(index)]")
        if !change.operations.isEmpty { rootField = nil }
        changes.append(change)
      }
      if !changes.isEmpty {
        try await document.applyChangePack(ChangePack(key: "", checkpoint: .initial, changes: changes))
      }
      var collected = 0
      if let minimum = job.minVersionVector {
        let vector = try WireVersionVector(vector: minimum).model("minVersionVector")
        collected = await document.garbageCollect(minSyncedVersionVector: vector)
        if collected > 0 { rootField = nil }
      }
      let (data, root) = await document.snapshotBytes(reusingRootField: rootField)
      let vector = await WireVersionVector(document.versionVector).vector
      let entry = MaterializedDocuments.Entry(
        document: document, baseSeq: baseSeq, base: job.base?.data ?? [], through: through, snapshotBytes: data.count, rootField: root)
      return Built(data: data, versionVector: vector, materialized: entry, collected: collected, reused: reused)
    } catch let error as ServiceError {
      throw error
    } catch {
      throw ServiceError(.internal, "materializing document \(job.document.hex): \(error)", metadataCode: nil)
    }
  }
}
