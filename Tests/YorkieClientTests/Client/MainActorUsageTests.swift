import Foundation
import Testing
import YorkieClient
import YorkieServer

/// How a Swift 6 app uses the client: a `@MainActor` view model that owns a client and a
/// document, edits through `update`, and shows the document, the peers and the sync status
/// from event streams. Written against the public API only (plain `import YorkieClient`).
@MainActor
final class TodoViewModel {
  private let client: Client
  private let document: Document
  private var tasks: [Task<Void, Never>] = []
  /// What the screen shows.
  private(set) var json = "{}"
  private(set) var peers: [String] = []
  private(set) var saved = true
  private(set) var lastProblem: String?

  init(url: URL, user: String) {
    client = Client(url, options: ClientOptions(key: user, metadata: ["user": user]))
    document = Document(key: "main-actor-todos")
  }

  func open(user: String) async throws {
    // Subscribe first: the events of the attach itself (the peers online) are then seen too.
    let events = await document.events()
    let clientEvents = client.events()
    try await client.activate()
    try await client.attach(document, initialPresence: ["user": .string(user)], initialRoot: ["todos": []])
    tasks.append(Task { [weak self] in
      for await event in events {
        switch event {
        case .remoteChange, .localChange, .snapshot: await self?.refresh()
        case .initialized, .watched, .unwatched, .presenceChanged: await self?.refreshPeers()
        default: break
        }
      }
    })
    tasks.append(Task { [weak self] in
      for await event in clientEvents {
        if case .stopped(let notice) = event { self?.lastProblem = notice.remedy }
      }
    })
    await refresh()
  }

  func add(_ title: String) async throws {
    saved = false
    try await document.update { root, _ in
      try root.array("todos")?.append(["title": .string(title), "done": false])
    }
    try await client.waitUntilAcknowledged(document)
    saved = true
  }

  func close() async throws {
    for task in tasks { task.cancel() }
    try await client.detach(document)
    try await client.deactivate()
  }

  private func refresh() async { json = await document.toSortedJSON() }

  private func refreshPeers() async {
    peers = await document.presences.compactMap { $0.presence["user"]?.string }.sorted()
  }
}

@Suite("Client: use from a @MainActor view model")
struct MainActorUsageTests {
  @Test("two view models on the main actor edit one list and see each other")
  @MainActor
  func viewModels() async throws {
    let server = YorkieDevServer(configuration: .init())
    let url = try server.start()
    defer { server.stop() }
    let ann = TodoViewModel(url: url, user: "ann")
    let bob = TodoViewModel(url: url, user: "bob")
    try await ann.open(user: "ann")
    try await bob.open(user: "bob")
    try await ann.add("milk")
    #expect(ann.saved)
    try await bob.add("eggs")
    // Bob may add before Ann's item reached him: the two orders are both valid, the same on both.
    let orders = [
      #"{"todos":[{"title":"milk","done":false},{"title":"eggs","done":false}]}"#,
      #"{"todos":[{"title":"eggs","done":false},{"title":"milk","done":false}]}"#,
    ]
    var converged = false
    for _ in 0..<2000 where !converged {
      converged = orders.contains(ann.json) && bob.json == ann.json && ann.peers == ["ann", "bob"] && bob.peers == ["ann", "bob"]
      if !converged { try await Task.sleep(nanoseconds: 5_000_000) }
    }
    #expect(converged, "ann \(ann.json) \(ann.peers), bob \(bob.json) \(bob.peers)")
    #expect(ann.lastProblem == nil)
    try await ann.close()
    try await bob.close()
  }
}

@Suite("The planned API's server lines")
struct PlannedServerAPITests {
  @Test("DevServer.start(port: 0), Client(server.url), await server.stop() work as docs/api.md writes them")
  func plannedLines() async throws {
    let server = try await DevServer.start(port: 0)
    let client = Client(server.url)
    try await client.activate()
    #expect(await client.status == .activated)
    try await client.deactivate()
    await server.stop()
    #expect(server.server.url == nil)
  }
}
