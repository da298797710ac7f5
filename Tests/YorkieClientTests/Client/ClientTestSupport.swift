import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

/// Waits until `condition` holds, checking every 5 ms, for at most `timeout` seconds;
/// returns whether it held. The wait suspends (it never blocks a thread).
func eventually(timeout: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try await condition() { return true }
    try? await Task.sleep(nanoseconds: 5_000_000)
  }
  return try await condition()
}

/// An activated client of the server at `url`.
func activatedClient(_ url: URL, key: String = "c", options: ClientOptions = ClientOptions()) async throws -> Client {
  var options = options
  options.key = key
  let client = Client(url, options: options)
  try await client.activate()
  return client
}

/// Collects the events of a stream in the background, for later assertions.
final class EventRecorder<Event: Sendable>: Sendable {
  private let events = LockedValue<[Event]>([])
  private let task: LockedValue<Task<Void, Never>?> = LockedValue(nil)

  /// Starts recording `stream`.
  init(_ stream: AsyncStream<Event>) {
    let events = self.events
    task.withLock {
      $0 = Task {
        for await event in stream { events.withLock { $0.append(event) } }
      }
    }
  }

  /// Stops recording.
  deinit { task.withLock { $0?.cancel() } }

  /// What was recorded so far.
  var recorded: [Event] { events.withLock { $0 } }

  /// Waits until an event satisfies `predicate`; returns whether one did.
  func waitFor(timeout: Double = 10, _ predicate: @escaping (Event) -> Bool) async -> Bool {
    await eventually(timeout: timeout) { recorded.contains(where: predicate) }
  }
}

/// The server's own copy of document `key` as sorted JSON (its materialization loaded into a
/// fresh replica); nil when the server does not know the document. `project` is the project's
/// public key ("" for the default project).
func serverJSON(_ server: YorkieDevServer, _ key: String, project: String = "") async throws -> String? {
  guard let snapshot = try await server.service?.materialize(documentKey: key, project: project) else { return nil }
  let replica = Document(key: key)
  try await replica.applyChangePack(ChangePack(key: key, checkpoint: .initial, changes: [], snapshot: Data(snapshot)))
  return await replica.toSortedJSON()
}
