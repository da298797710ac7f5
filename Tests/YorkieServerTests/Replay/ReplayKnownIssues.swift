import Foundation

/// Mismatches the replay currently finds and that are already reported: server bugs awaiting a
/// fix, and differences proposed as deliberate but not yet decided. They are recorded as known
/// issues (visible in every test run, not failing it), one entry per exchange and path; when
/// one stops occurring the replay says so, so that its entry is removed (or, once decided
/// deliberate, moved to ``ReplayDeliberateDifferences`` and the fixture README).
///
/// This is a waiting room, not a way to ignore things: nothing here is documented as correct.
enum ReplayKnownIssues {
  /// An open mismatch: in `file`, at `exchange`, every mismatch whose detail contains all of
  /// `details`.
  struct Entry: Sendable {
    let file: String
    let exchange: Int
    let details: [String]
    /// What it is and where it was reported.
    let reason: String
    /// Whether it depends on timing (then its absence in one run says nothing).
    var intermittent = false
  }

  /// Every open entry.
  static let entries: [Entry] = []

  /// The entry that covers `mismatch`, if any.
  static func entry(for mismatch: ReplayMismatch) -> Entry? {
    entries.first { $0.file == mismatch.file && $0.exchange == mismatch.exchange && $0.details.allSatisfy(mismatch.detail.contains) }
  }
}
