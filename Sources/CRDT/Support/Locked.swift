import Foundation

/// A value guarded by a lock: the only way across threads for the mutable state of the server
/// and the client (package-wide; the `CRDT` module itself has no use for it).
///
/// Invariant (why `@unchecked Sendable` is sound): `value` is read and written only inside
/// ``withLock(_:)``, which holds `lock` for the whole access, and `Value` is itself `Sendable`,
/// so nothing that escapes the closure can race.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  /// The lock that guards `value`.
  private let lock = NSLock()
  /// The guarded value; touched only while `lock` is held.
  private var value: Value

  /// A lock guarding `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns what it returns.
  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
