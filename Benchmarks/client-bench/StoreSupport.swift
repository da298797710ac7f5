import CRDT
import Foundation
import YorkieClient

// What the store cases share: temporary folders, the sizes of a document's files in a
// FileDocumentStore, and a recorder that only keeps the base a document hands it.

/// A new folder under the temporary directory (created), for one store.
func temporaryStoreFolder(_ prefix: String) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("client-bench-\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

/// Removes a folder made by ``temporaryStoreFolder(_:)`` (a failure only leaves it behind).
func removeStoreFolder(_ folder: URL) {
  try? FileManager.default.removeItem(at: folder)
}

/// The folder a `FileDocumentStore` in `folder` keeps its one document in (the store makes one
/// folder per document; its identity is a file): nil unless there is exactly one.
func documentFolder(in folder: URL) -> URL? {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  let folders = names.map { folder.appendingPathComponent($0, isDirectory: true) }.filter { url in
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
  }
  return folders.count == 1 ? folders[0] : nil
}

/// The size of each file in `folder` by name (empty when there is no such folder).
func fileSizes(in folder: URL) -> [String: Int] {
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [:] }
  var sizes: [String: Int] = [:]
  for name in names {
    let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
    sizes[name] = (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }
  return sizes
}

/// The sum of the file sizes in `folder`.
func folderBytes(_ folder: URL) -> Int { fileSizes(in: folder).values.reduce(0, +) }

/// The sizes of a document's generation files (`<20 digits>.log`) by generation number.
func generationSizes(in folder: URL) -> [Int: Int] {
  var sizes: [Int: Int] = [:]
  for (name, size) in fileSizes(in: folder) where name.hasSuffix(".log") && name.count == 24 {
    if let number = Int(name.prefix(20)) { sizes[number] = size }
  }
  return sizes
}

/// A client ID as the server makes them (24 hex digits), for a stored identity.
func randomClientID() -> String { ActorID.random().hex }

/// A recorder that keeps the base a document hands it (``Document/startRecording(with:)``)
/// and drops every record: how the store cases take a document's base without the client.
final class BaseCapture: ReplicaRecorder {
  private let captured = Locked<ReplicaBase?>(nil)

  /// The last base handed over.
  var base: ReplicaBase? { captured.withLock { $0 } }

  func rebase(_ base: ReplicaBase, pendingChanges: [Change]) throws {
    captured.withLock { $0 = base }
  }

  func record(_ record: ReplicaRecord) throws {}
}

/// The base of `document` as it is now, taken through a ``BaseCapture`` (the document records
/// nothing afterwards).
func currentBase(of document: Document) async throws -> ReplicaBase {
  let capture = BaseCapture()
  try await document.startRecording(with: capture)
  await document.stopRecording()
  guard let base = capture.base else { throw BenchFailure("the document handed over no base") }
  return base
}
