/// The containers this replica's recent changes edited, with each change's lamport: what tells,
/// when a remote change removes or replaces an element, whether it takes with it edits of this
/// replica that its author had not seen (``DocEvent/overwritten(_:)``).
///
/// A remote change has seen this replica's change of lamport `L` exactly when its version
/// vector holds this replica's actor at `L` or more. So the entries that matter for a remote
/// change are those after its vector's entry for this replica: a suffix, since this replica's
/// lamports only grow.
///
/// Two flat arrays (no allocation per change once grown): `lamports[i]` is the lamport of the
/// change that edited `targets[i]`. Entries go once every replica has seen them (the server's
/// minimum synced version vector, ``forget(seenThrough:)``), and past ``capacity`` the oldest
/// go anyway, so that a replica that never syncs with a server (a transport of its own) keeps a
/// bounded log: edits older than the last ``capacity`` entries are not reported.
struct LocalEditLog {
  /// Entries kept at least (up to twice as many between trims).
  static let capacity = 8192

  private var lamports: [Int64] = []
  private var targets: [TimeTicket] = []

  /// The lamport of the newest entry (0 when empty): a remote change whose vector holds this
  /// replica at that or more has seen every logged edit, and nothing needs checking.
  var newestLamport: Int64 { lamports.last ?? 0 }

  /// Logs the containers an update edited (``UpdateContext/firstEdited`` and the others): the
  /// path every local update takes, which never iterates its operations.
  mutating func record(lamport: Int64, first: TimeTicket, later: [TimeTicket]) {
    lamports.append(lamport)
    targets.append(first)
    for target in later {
      lamports.append(lamport)
      targets.append(target)
    }
    trim()
  }

  /// Logs the containers `change`'s operations edited (each operation's parent; a run of
  /// operations on one container is one entry): for changes replayed or renamed, not made here.
  mutating func record(_ change: Change) {
    let lamport = change.id.lamport
    for operation in change.operations {
      let target = operation.parentCreatedAt
      if lamports.last == lamport && targets.last == target { continue }
      lamports.append(lamport)
      targets.append(target)
    }
    trim()
  }

  /// Past twice the capacity, drops the oldest entries down to the capacity.
  private mutating func trim() {
    guard lamports.count > 2 * Self.capacity else { return }
    lamports.removeFirst(lamports.count - Self.capacity)
    targets.removeFirst(targets.count - Self.capacity)
  }

  /// Drops the entries every replica has seen (lamport `lamport` and before).
  mutating func forget(seenThrough lamport: Int64) {
    let cut = firstIndex(after: lamport)
    guard cut > 0 else { return }
    lamports.removeFirst(cut)
    targets.removeFirst(cut)
  }

  /// The containers edited by changes after lamport `lamport`, oldest first (a container
  /// edited by several changes appears several times).
  func targets(after lamport: Int64) -> ArraySlice<TimeTicket> {
    targets[firstIndex(after: lamport)...]
  }

  /// Forgets everything (a replica made fresh again).
  mutating func removeAll() {
    lamports.removeAll()
    targets.removeAll()
  }

  /// The index of the first entry whose lamport is greater than `lamport` (binary search).
  private func firstIndex(after lamport: Int64) -> Int {
    var low = 0
    var high = lamports.count
    while low < high {
      let middle = (low + high) / 2
      if lamports[middle] <= lamport { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
