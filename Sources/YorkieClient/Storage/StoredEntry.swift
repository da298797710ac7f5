import CRDT
import Foundation
import YorkieProtocol

/// How the client writes a document's history into a ``DocumentStore``: the entries after a
/// base are ``ReplicaRecord``s, a kind byte followed by the wire message in Yorkie's JSON
/// (1: a local change as a `Change`; 2: a server's answer as a `ChangePack`), and the base is a
/// ``ReplicaBase`` with the server's document ID.
enum StoredEntry {
  /// The entry of a record.
  static func encode(_ record: ReplicaRecord) -> Data {
    switch record {
    case .localChange(let change):
      var bytes: [UInt8] = [1]
      bytes.append(contentsOf: WireChange(change).jsonBytes)
      return Data(bytes)
    case .serverPack(let pack):
      var bytes: [UInt8] = [2]
      bytes.append(contentsOf: WireChangePack(pack).jsonBytes)
      return Data(bytes)
    }
  }

  /// The record of an entry.
  ///
  /// - Throws: ``YorkieError`` `invalidChangePack`, naming the entry's index.
  static func decode(_ entry: Data, index: Int) throws -> ReplicaRecord {
    guard let kind = entry.first else {
      throw YorkieError(.invalidChangePack, "stored entry \(index) is empty")
    }
    let body = entry.dropFirst()
    do {
      switch kind {
      case 1: return .localChange(try WireChange(jsonData: body).model("entries[\(index)]"))
      case 2: return .serverPack(try WireChangePack(jsonData: body).model("entries[\(index)]", role: .response))
      default: throw YorkieError(.invalidChangePack, "stored entry \(index) has unknown kind \(kind)")
      }
    } catch let error as YorkieError where error.code == .invalidChangePack {
      throw error
    } catch {
      throw YorkieError(.invalidChangePack, "stored entry \(index) does not decode: \(error)", underlying: error)
    }
  }

  /// A stored document as a base and records to restore.
  static func replica(_ stored: StoredDocument) throws -> StoredReplica {
    StoredReplica(base: stored.base.replica, records: try stored.entries.enumerated().map { try decode($1, index: $0) })
  }
}

/// A stored document decoded: what ``Document/restore(from:replaying:)`` takes.
struct StoredReplica {
  /// Where the history starts.
  var base: ReplicaBase
  /// The steps after it.
  var records: [ReplicaRecord]
}
