import Foundation

/// A value shared between tasks and threads, read and written under a lock.
final class Protected<Value>: @unchecked Sendable {
  /// Guards `value`.
  private let lock = NSLock()
  /// The value; touched only while `lock` is held.
  private var value: Value

  /// Protects `value`.
  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the value.
  var current: Value { withLock { $0 } }
}
