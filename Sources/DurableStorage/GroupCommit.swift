import Foundation

/// The meeting point of a ``DurableLog``'s syncs: it knows what is durable, lets one caller at a time
/// flush the file — the *leader* — and makes every other caller wait for that flush instead of
/// issuing its own (group commit).
///
/// A caller asks for its ``turn(for:)``: it is either already covered, or it leads, or it waits for
/// the flush in flight and asks again once it finishes (the flush may have covered it, or it may lead
/// the next one, which then covers everything appended before it started). So N callers whose
/// appends are done before they sync cost at most two flushes, however large N is: perhaps one
/// already in flight, and one that covers them all.
///
/// ``beginExclusive()`` takes the same leader role for operations that replace or close the file
/// descriptor (rewrite, close): no flush runs on a descriptor while it is being replaced. A waiting
/// exclusive operation goes before any new flush, so a stream of syncs cannot starve it.
///
/// Invariant (why `@unchecked Sendable` is sound): every stored variable is read and written only
/// while `condition`'s lock is held.
final class GroupCommit: @unchecked Sendable {
  /// What ``turn(for:)`` tells a caller.
  enum Turn: Sendable, Hashable {
    /// The position is durable already: nothing to do.
    case covered
    /// The caller leads: it flushes the file, then calls ``finishFlush(reached:)`` or
    /// ``finishFlush(failure:)``.
    case lead
  }

  /// Guards every variable below; waiters sleep on it.
  private let condition = NSCondition()
  /// Everything up to here is durable.
  private var durable: DurableLog.Position
  /// A leader (flush or exclusive operation) is running.
  private var busy = false
  /// Exclusive operations waiting for their turn.
  private var exclusiveWaiting = 0
  /// Why nothing more can become durable (the log was closed or a flush failed); sticky.
  private var failure: StorageError?
  /// Flushes finished by leaders, successful or not.
  private var flushes = 0
  /// Callers of ``turn(for:)`` now asleep, waiting for a flush in flight.
  private var sleepers = 0

  /// A meeting point for a log durable up to `durable`.
  init(durable: DurableLog.Position) {
    self.durable = durable
  }

  /// Waits until `position` is durable (``Turn/covered``) or the caller may lead the next flush
  /// (``Turn/lead``). Throws the sticky failure if `position` is not covered and can no longer be.
  func turn(for position: DurableLog.Position) throws(StorageError) -> Turn {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if position <= durable { return .covered }
      if let failure { throw failure }
      if !busy && exclusiveWaiting == 0 {
        busy = true
        return .lead
      }
      sleepers += 1
      condition.wait()
      sleepers -= 1
    }
  }

  /// Ends a leader's successful flush: everything up to `reached` is durable.
  func finishFlush(reached: DurableLog.Position) {
    finish(durable: reached, failure: nil, flushed: true)
  }

  /// Ends a leader's failed flush: nothing not yet durable ever will be; waiters and later callers
  /// get `failure`.
  func finishFlush(failure: StorageError) {
    finish(durable: nil, failure: failure, flushed: true)
  }

  /// Waits until no leader runs, then becomes the leader, for an operation that replaces or closes
  /// the descriptor. End it with ``endExclusive(durable:failure:)``.
  func beginExclusive() {
    condition.lock()
    defer { condition.unlock() }
    exclusiveWaiting += 1
    while busy { condition.wait() }
    exclusiveWaiting -= 1
    busy = true
  }

  /// Ends an exclusive operation: everything up to `durable` (if given) is durable, and `failure`
  /// (if given) becomes the sticky failure.
  func endExclusive(durable: DurableLog.Position?, failure: StorageError?) {
    finish(durable: durable, failure: failure, flushed: false)
  }

  /// Releases the leader role, records its outcome and wakes every waiter to re-check.
  private func finish(durable reached: DurableLog.Position?, failure newFailure: StorageError?, flushed: Bool) {
    condition.lock()
    defer { condition.unlock() }
    if let reached, reached > durable { durable = reached }
    if let newFailure { failure = newFailure }
    if flushed { flushes += 1 }
    busy = false
    condition.broadcast()
  }

  /// How many flushes leaders have finished (for tests of the grouping).
  var flushCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return flushes
  }

  /// How many callers are asleep waiting for a flush in flight (for tests of the grouping).
  var sleepingCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return sleepers
  }
}
