import Foundation

/// A failure of the replay harness itself (unreadable recording, unusable server answer).
struct ReplayError: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
  /// An error saying `description`.
  init(_ description: String) { self.description = description }
}
