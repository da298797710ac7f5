import CRDT
import Foundation
import Observation
import YorkieClient

/// One document (and the client that syncs it, when there is one) as main-actor state that
/// SwiftUI views read directly: the content, the peers and their presences, the connection
/// and whether every edit reached the server.
///
/// ```swift
/// let model = DocumentModel(document: doc, client: client)
/// // In a view: model.value["title"]?.string, model.others.count, model.isSaved
/// try await model.update { root, _ in root["title"] = "Groceries" }
/// ```
///
/// ## When it changes: the coalescing rule
///
/// The model follows ``Document/events()`` and ``Client/events()`` in tasks off the main actor;
/// an event only marks which parts changed (content, presences, sync), however many arrive.
/// The main actor then refreshes once for all the marks, **at most once per
/// ``refreshInterval``** (a frame, 1/60 s, by default): it reads the marked parts from the
/// document in one visit, and assigns only the properties whose value differs, in one turn.
/// So a pulled pack of 1,000 changes, or a snapshot, is one observable update; a peer typing
/// 120 keys a second makes at most 60 refreshes a second; a presence change rebuilds no value.
/// An observer (`withObservationTracking`, a SwiftUI view) sees one change per refresh that
/// changed what it reads, none for one that changed something else.
///
/// Edits through ``update(message:_:)`` are refreshed at once, without waiting for the
/// interval: what the user typed shows in the same turn the edit returns.
///
/// ## Lifetime
///
/// The model holds its tasks and ends them when it is released: its event streams end (the
/// document and client drop their subscriptions), its refresh loop returns. It keeps the
/// document and client alive, not the other way round.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
@Observable
public final class DocumentModel {
  /// The document the model shows.
  @ObservationIgnored public let document: Document
  /// The client that syncs the document; nil for a document synced by hand (or not at all).
  @ObservationIgnored public let client: Client?
  /// The shortest time between two refreshes caused by events (see the type's documentation).
  @ObservationIgnored public let refreshInterval: Duration

  /// The document's content, as of the last refresh.
  public private(set) var value: JSONValue = .object(JSONValue.Object())
  /// This replica (first, while attached) and every online peer with a presence.
  public private(set) var presences: [PeerPresence] = []
  /// The online peers with a presence, without this replica.
  public private(set) var others: [PeerPresence] = []
  /// This replica's presence; `[:]` while detached, as ``Document/myPresence`` reads it.
  public private(set) var myPresence: [String: JSONValue] = [:]
  /// Whether the document is detached, attached or removed.
  public private(set) var status: DocumentStatus = .detached
  /// Whether the document's Watch stream is connected; nil without a client, in a mode
  /// without a stream, or while the client does not hold the document.
  public private(set) var connection: StreamConnectionStatus?
  /// The outcome of the last exchange with the server (see ``DocumentSyncState/lastSync``);
  /// nil without a client.
  public private(set) var lastSync: DocumentSyncStatus?
  /// Whether every local edit is safe: with a client, the server acknowledged them all and the
  /// last exchange succeeded (``DocumentSyncState/isSaved``); without one, no local change
  /// waits for an acknowledgement (``Document/hasLocalChanges``).
  public private(set) var isSaved = true
  /// Whether ``undo()`` has a step to undo (``Document/canUndo``): what an Undo button's
  /// `disabled(_:)` reads.
  public private(set) var canUndo = false
  /// Whether ``redo()`` has a step to redo (``Document/canRedo``).
  public private(set) var canRedo = false

  /// Links the event tasks to the refresh loop, and owns the tasks.
  @ObservationIgnored package let feed = RefreshFeed()
  /// When the last refresh read the document, for the interval.
  @ObservationIgnored private var lastRefresh: ContinuousClock.Instant?
  /// Refreshes asked for by local edits (served without waiting for the interval) and those
  /// done: an edit waits until a refresh that started after it finished.
  @ObservationIgnored private var requested = 0
  @ObservationIgnored private var refreshWaiters: [(ticket: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// Counts for benchmarks and tests: refreshes, those that changed a property, and the time
  /// the main actor spent in them.
  @ObservationIgnored package private(set) var statistics = RefreshStatistics()

  /// A model of `document`, following it (and `client`'s view of it) from now on.
  ///
  /// - Parameters:
  ///   - document: The document to show.
  ///   - client: The client that syncs it, for ``connection``, ``lastSync`` and ``isSaved``.
  ///   - refreshInterval: The shortest time between two refreshes that events cause: a frame
  ///     of a 60 Hz screen by default. Zero refreshes as soon as the main actor is free.
  public init(document: Document, client: Client? = nil, refreshInterval: Duration = .seconds(1) / 60) {
    self.document = document
    self.client = client
    self.refreshInterval = refreshInterval
    startFollowing()
  }

  deinit {
    feed.finish()
  }

  // MARK: - Reading

  /// The value at `path` (`$.todos`) decoded as `type`, from ``value``: a synchronous read
  /// for a view's body (``Document/decode(_:at:using:)`` reads the document itself).
  ///
  /// Reading it in a view makes the view depend on ``value``.
  ///
  /// - Throws: ``YorkieError`` `decodingFailed` naming the path that did not decode;
  ///   `invalidPath` for a path that does not start at `$`.
  public func decode<Value: Decodable>(_ type: Value.Type, at path: String = "$", using decoder: JSONValueDecoder = JSONValueDecoder()) throws -> Value {
    try decoder.decode(type, from: try value.descendant(atPath: path) ?? .null, at: path)
  }

  // MARK: - Editing

  /// Edits the document with ``Document/update(message:_:)`` and refreshes the model before
  /// returning, so the edit shows at once. The rules are `update`'s: the updater runs on the
  /// document, captures copies of main-actor state rather than the state itself, and returns
  /// what the caller needs.
  ///
  /// ```swift
  /// let title = draftTitle          // a copy of main-actor state
  /// try await model.update { root, _ in root["title"] = .string(title) }
  /// ```
  @discardableResult
  public func update<Result: Sendable>(
    message: String? = nil, _ updater: sending (JSONObject, Presence) throws -> Result
  ) async throws -> Result {
    let result = try await document.update(message: message, updater)
    await refreshNow(.all)
    return result
  }

  /// Undoes this replica's latest update with ``Document/undo()`` and refreshes the model
  /// before returning, as ``update(message:_:)`` does.
  ///
  /// ```swift
  /// Button("Undo") { Task { try await model.undo() } }.disabled(!model.canUndo)
  /// ```
  ///
  /// - Throws: what ``Document/undo()`` throws (`nothingToUndo` when ``canUndo`` is false).
  public func undo() async throws {
    try await document.undo()
    await refreshNow(.all)
  }

  /// Redoes the latest undone update with ``Document/redo()`` and refreshes the model before
  /// returning.
  ///
  /// - Throws: what ``Document/redo()`` throws (`nothingToRedo` when ``canRedo`` is false).
  public func redo() async throws {
    try await document.redo()
    await refreshNow(.all)
  }

  /// Waits for a refresh that reads everything, without waiting for the interval: for a
  /// view that must show the document as it is now (after edits made on `document` directly).
  public func refresh() async {
    await refreshNow(.all)
  }

  // MARK: - Following

  private func startFollowing() {
    let feed = self.feed
    let document = self.document
    feed.start {
      let events = await document.events()
      // Subscribed first, then read everything: nothing that happened before is missed.
      feed.mark(.all)
      for await event in events {
        feed.mark(Self.needs(of: event))
      }
    }
    feed.start {
      // The first state is the current one, which the first refresh reads anyway.
      for await _ in await document.historyStates().dropFirst() {
        feed.mark(.history)
      }
    }
    if let client {
      let events = client.events()
      let key = document.key
      feed.start {
        for await event in events where Self.concerns(event, key) {
          feed.mark(.sync)
        }
      }
    }
    feed.startOnMainActor { [weak self] in
      while !Task.isCancelled {
        await feed.wait()
        guard !Task.isCancelled, let model = self else { return }
        // A local edit waiting for its refresh is served at once; events wait for the interval.
        if !model.hasWaiters { await model.waitForInterval() }
        await model.refreshOnce(feed.take())
      }
    }
  }

  /// What an event makes stale.
  nonisolated private static func needs(of event: DocEvent) -> RefreshNeeds {
    switch event {
    case .localChange, .remoteChange, .snapshot, .overwritten: return .content
    case .initialized, .watched, .unwatched, .presenceChanged: return .presence
    case .statusChanged: return .all
    }
  }

  /// Whether a client event can change what ``connection``, ``lastSync`` or ``isSaved`` say.
  nonisolated private static func concerns(_ event: ClientEvent, _ key: String) -> Bool {
    switch event {
    case .connectionChanged(let document, _), .syncStatusChanged(let document, _): return document == key
    case .stopped(let notice): return notice.resource == .documentSync(key) || notice.resource == .documentWatch(key)
    case .documentReset(let notice): return notice.document == key
    case .statusChanged: return true
    case .retrying, .authError, .storeDamaged, .channelAttached: return false
    }
  }

  private var hasWaiters: Bool { !refreshWaiters.isEmpty }

  /// Sleeps until `refreshInterval` has passed since the last refresh.
  private func waitForInterval() async {
    guard let lastRefresh, refreshInterval > .zero else { return }
    let next = lastRefresh + refreshInterval
    if next > .now { try? await Task.sleep(until: next, clock: .continuous) }
  }

  /// Marks `needs` and waits until a refresh that began after this call has finished.
  private func refreshNow(_ needs: RefreshNeeds) async {
    requested += 1
    let ticket = requested
    feed.mark(needs)
    await withCheckedContinuation { continuation in
      refreshWaiters.append((ticket, continuation))
    }
  }

  /// Reads what `needs` names and assigns what changed, in one main-actor turn.
  private func refreshOnce(_ needs: RefreshNeeds) async {
    let covers = requested
    lastRefresh = .now
    if !needs.isEmpty {
      let state = await document.observedState(needs)
      let sync = needs.contains(.sync) ? await client?.syncState(of: document) : nil
      let start = ContinuousClock.now
      let changed = apply(state, sync: needs.contains(.sync) ? .some(sync) : .none)
      statistics.record(changed: changed, mainActorTime: ContinuousClock.now - start)
    }
    let ready = refreshWaiters.filter { $0.ticket <= covers }
    refreshWaiters.removeAll { $0.ticket <= covers }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Assigns each property whose value differs (an equal assignment would still notify
  /// observers); returns whether any did. `sync` is nil when the client's state was not read.
  private func apply(_ state: ObservedState, sync: DocumentSyncState??) -> Bool {
    var changed = false
    func assign<Value: Equatable>(_ keyPath: ReferenceWritableKeyPath<DocumentModel, Value>, _ newValue: Value) {
      guard self[keyPath: keyPath] != newValue else { return }
      self[keyPath: keyPath] = newValue
      changed = true
    }
    if let value = state.value { assign(\.value, value) }
    if let presences = state.presences {
      assign(\.presences, presences)
      assign(\.others, presences.filter { $0.actorID != state.actorID })
      assign(\.myPresence, presences.first { $0.actorID == state.actorID }?.presence ?? [:])
    }
    assign(\.status, state.status)
    assign(\.canUndo, state.canUndo)
    assign(\.canRedo, state.canRedo)
    if client == nil {
      assign(\.isSaved, !state.hasLocalChanges)
    } else if let sync {
      assign(\.connection, sync?.stream)
      assign(\.lastSync, sync?.lastSync)
      assign(\.isSaved, sync?.isSaved ?? false)
    } else if state.hasLocalChanges {
      // An edit since the client's state was read: not saved until its exchange says so.
      assign(\.isSaved, false)
    }
    return changed
  }
}

/// What a model's refreshes cost: for benchmarks and tests.
package struct RefreshStatistics: Sendable {
  /// Refreshes that read the document.
  package var refreshes = 0
  /// Refreshes that changed a property: what observers were notified of.
  package var notifications = 0
  /// Main-actor time spent comparing and assigning.
  package var mainActorTime = Duration.zero

  mutating func record(changed: Bool, mainActorTime: Duration) {
    refreshes += 1
    if changed { notifications += 1 }
    self.mainActorTime += mainActorTime
  }
}
