/// Why an operation is executed, and what that allows: Yorkie's `OpSource` (`Local`, `Remote`,
/// `UndoRedo`), with the replay of this replica's own changes as a case of its own.
///
/// Every difference between executions follows from the mode: whether the operation is
/// described for events, whose knowledge bounds it (the author's version vector), whether it
/// may take the element it holds as it is, and whether its tickets are the newest the document
/// has seen.
package enum ExecutionMode {
  /// This replica's update, right after a proxy built the operation. Its tickets are newer
  /// than anything in the document, it knows everything the document holds, and a fresh
  /// primitive it carries goes into the tree as it is (see ``OperationValue``). `describing`:
  /// whether someone listens, so that the operation is described for events (paths cost a
  /// lookup).
  case local(describing: Bool)
  /// An operation of another replica's change, from a server's pack or a peer. Its author had
  /// seen `versionVector`: a text edit leaves alone what it had not seen, an ArraySet lands
  /// where its author saw the target, a restore edit names only insertions it had seen.
  case remote(versionVector: VersionVector, describing: Bool)
  /// Reserved for undo and redo (issue 24): a reverse operation executed as a new local
  /// change. It runs as ``local(describing:)`` does (fresh tickets, knows everything) except
  /// that it never adopts the element it holds: a history keeps the operation, which may run
  /// again, so each execution gets an element of its own.
  case undoRedo(describing: Bool)
  /// This replica's own operations executed again on another root: the pending local changes
  /// on top of a snapshot, the changes `setActor` re-issues, the recorded ones a restore
  /// replays. Nothing is described, held elements are copied, and, like the local execution,
  /// it knows everything (its author is this replica); its tickets are not necessarily the
  /// newest (a snapshot may hold later changes of others).
  case replay

  /// Whether the operation is described for events (``OperationInfo``).
  @inline(__always) package var describes: Bool {
    switch self {
    case .local(let describing), .remote(_, let describing), .undoRedo(let describing): return describing
    case .replay: return false
    }
  }

  /// What the operation's author had seen, when it had not seen everything this replica has:
  /// a remote change's version vector (an empty vector says nothing and counts as none). Nil
  /// for this replica's own operations, which know everything.
  @inline(__always) package var authorVector: VersionVector? {
    switch self {
    case .remote(let versionVector, _): return versionVector.isEmpty ? nil : versionVector
    case .local, .undoRedo, .replay: return nil
    }
  }

  /// Whether the operation may put the element it holds into the tree as it is, instead of a
  /// copy: only right after a proxy built it, when nothing else holds it.
  @inline(__always) package var adoptsValues: Bool {
    switch self {
    case .local: return true
    case .remote, .undoRedo, .replay: return false
    }
  }

  /// Whether the operation's tickets are newer than every ticket in the document (it was
  /// issued on this replica just now): a text edit then finds its boundaries without walking
  /// over concurrent insertions.
  @inline(__always) package var issuesNewestTickets: Bool {
    switch self {
    case .local, .undoRedo: return true
    case .remote, .replay: return false
    }
  }
}

/// Where a batch of remote changes comes from, which decides how they are checked before
/// they are executed (each in ``ExecutionMode/remote(versionVector:describing:)``).
package enum ChangeDelivery {
  /// A server's answer: sent once, in causal order, with the author's client sequence
  /// restarting when it attaches again. Not checked against sequences; a change of this
  /// replica's actor was made by an earlier attachment and is content this replica lacks.
  case server
  /// Another replica's changes delivered by the application's own transport: each must come
  /// after its author's previous change and after everything its version vector has seen.
  case peer
}
