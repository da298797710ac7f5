import Foundation
import Observation
import Testing

@testable import CRDT
@testable import YorkieObservation

/// Counts the changes `withObservationTracking` reports for what `read` reads, re-arming after
/// each on the main actor (as SwiftUI does when it re-renders): one count per main-actor turn
/// that changed any of it.
@MainActor
final class ObservationCounter {
  private(set) var count = 0
  private var stopped = false
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    arm()
  }

  private func arm() {
    guard !stopped else { return }
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      // Called inside the first assignment (willSet): counted and re-armed once the turn that
      // assigns is over.
      Task { @MainActor in
        guard let self else { return }
        self.count += 1
        self.arm()
      }
    }
  }

  func stop() { stopped = true }
}

/// Everything a view of the model could read.
@MainActor
func readEverything(_ model: DocumentModel) {
  _ = model.value
  _ = model.presences
  _ = model.others
  _ = model.myPresence
  _ = model.status
  _ = model.connection
  _ = model.lastSync
  _ = model.isSaved
  _ = model.canUndo
  _ = model.canRedo
}

/// Waits on the main actor until `condition` holds, checking every 5 ms, for at most `timeout`
/// seconds; returns whether it held.
@MainActor
func eventually(timeout: Double = 10, _ condition: @MainActor () async -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if await condition() { return true }
    try? await Task.sleep(nanoseconds: 5_000_000)
  }
  return await condition()
}

/// Lets a few refresh intervals pass, so that a second notification, if one were coming, would
/// be counted before the test checks the count.
func settle() async {
  try? await Task.sleep(nanoseconds: 150_000_000)
}

/// The actor `00…0n`.
func actor(_ n: Int) -> ActorID {
  let digits = String(n, radix: 16)
  return try! ActorID(hex: String(repeating: "0", count: 24 - digits.count) + digits)
}

/// Two replicas of one document with actors `…01` and `…02`, synced by hand.
func makeReplicas(key: String) async throws -> (Document, Document) {
  let local = Document(key: key)
  try await local.setActor(actor(1))
  let remote = Document(key: key)
  try await remote.setActor(actor(2))
  return (local, remote)
}
