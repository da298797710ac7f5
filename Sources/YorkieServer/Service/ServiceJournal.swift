import DurableStorage

/// Where the service makes its records durable (see ``JournalRecord``).
///
/// ``append(_:)`` is called under the service's lock, so records reach the journal in the order
/// the state changed; ``sync(through:)`` is called outside it, before the answer of the step goes
/// out, and returns once everything up to the mark is durable. Any step's answer waits for the
/// mark of its own step, which covers every record it could have read: a client never sees data
/// that a crash could take back.
package protocol ServiceJournal: Sendable {
  /// Appends the records of one step; returns the mark to sync through.
  func append(_ records: [JournalRecord]) throws(ServiceError) -> DurableLog.Position
  /// Returns once everything up to `mark` is durable.
  func sync(through mark: DurableLog.Position) async throws(ServiceError)
  /// Runs `action` once everything up to `mark` is durable (with `nil`), or when that failed
  /// (with the error): at once for a journal that keeps nothing, otherwise on the flushing
  /// thread. `action` must be quick.
  func whenDurable(through mark: DurableLog.Position, _ action: @escaping @Sendable (ServiceError?) -> Void)
  /// The mark after everything appended so far.
  var currentMark: DurableLog.Position { get }
}

/// The journal of a server that keeps everything in memory: nothing to write.
package struct MemoryJournal: ServiceJournal {
  /// A journal that keeps nothing.
  package init() {}
  package func append(_ records: [JournalRecord]) throws(ServiceError) -> DurableLog.Position { currentMark }
  package func sync(through mark: DurableLog.Position) async throws(ServiceError) {}
  package func whenDurable(through mark: DurableLog.Position, _ action: @escaping @Sendable (ServiceError?) -> Void) { action(nil) }
  package var currentMark: DurableLog.Position { DurableLog.Position(generation: 0, offset: 0) }
}
