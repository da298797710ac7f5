import Foundation
import Observation
import Testing
import YorkieServer
import YorkieTestSupport

@testable import CRDT
@testable import YorkieClient
@testable import YorkieObservation

/// The model over a client, against the in-process development server: a peer's edit, a peer's
/// presence change, and the connection dropping (through the fault proxy) and coming back each
/// notify once.
@MainActor
@Suite("DocumentModel with a client", .serialized)
struct DocumentModelServerTests {
  private func client(_ url: URL, _ key: String) async throws -> Client {
    var options = ClientOptions(reconnect: ReconnectPolicy(base: 0.1, multiplier: 2, cap: 0.3, minimumDelay: 0.05))
    options.key = key
    let client = Client(url, options: options)
    try await client.activate()
    return client
  }

  @Test("a peer's edit and a peer's presence change each notify once")
  func remoteEditAndPresence() async throws {
    let server = YorkieDevServer(configuration: YorkieDevServer.Configuration())
    let url = try server.start()
    defer { server.stop() }
    let ann = try await client(url, "ann")
    let bob = try await client(url, "bob")
    let annDoc = Document(key: "model-remote")
    try await ann.attach(annDoc, initialPresence: ["name": "ann"], initialRoot: ["title": .value("draft")])
    let model = DocumentModel(document: annDoc, client: ann)
    let bobDoc = Document(key: "model-remote")
    try await bob.attach(bobDoc, initialPresence: ["name": "bob", "cursor": 0])
    #expect(await eventually { model.others.map(\.presence) == [["name": "bob", "cursor": 0]] && model.isSaved })
    #expect(model.myPresence == ["name": "ann"])
    #expect(model.connection == .connected)
    await settle()

    let edits = ObservationCounter { readEverything(model) }
    try await bobDoc.update { root, _ in root["title"] = "final" }
    #expect(await eventually { model.value["title"] == "final" })
    await settle()
    #expect(edits.count == 1)
    edits.stop()

    let presence = ObservationCounter { readEverything(model) }
    try await bobDoc.update { _, presence in presence.set(["cursor": 4]) }
    #expect(await eventually { model.others.first?.presence["cursor"] == 4 })
    await settle()
    #expect(presence.count == 1)
    presence.stop()
    await ann.close()
    await bob.close()
  }

  @Test("a refresh of presences or of the sync state keeps the value it did not read")
  func partialRefreshKeepsValue() async throws {
    // The sample once showed an empty to-do list after a peer moved his caret or after the
    // server acknowledged an edit: a refresh that read no content assigned `.null` to `value`.
    let server = YorkieDevServer(configuration: YorkieDevServer.Configuration())
    let url = try server.start()
    defer { server.stop() }
    let ann = try await client(url, "ann")
    let bob = try await client(url, "bob")
    let annDoc = Document(key: "model-partial")
    try await ann.attach(annDoc, initialPresence: ["name": "ann"], initialRoot: ["todos": .value(["milk"])])
    let model = DocumentModel(document: annDoc, client: ann)
    let bobDoc = Document(key: "model-partial")
    try await bob.attach(bobDoc, initialPresence: ["name": "bob", "cursor": 0])
    #expect(await eventually { model.others.count == 1 && model.isSaved })
    await settle()
    #expect(model.value == ["todos": ["milk"]])

    // A presence-only refresh.
    try await bobDoc.update { _, presence in presence.set(["cursor": 4]) }
    #expect(await eventually { model.others.first?.presence["cursor"] == 4 })
    await settle()
    #expect(model.value == ["todos": ["milk"]])

    // The acknowledgement of an edit: a refresh of the sync state only.
    try await model.update { root, _ in try root.array("todos")?.append("eggs") }
    #expect(await eventually { model.isSaved })
    await settle()
    #expect(model.value == ["todos": ["milk", "eggs"]])
    #expect(model.value == (await annDoc.value))
    await ann.close()
    await bob.close()
  }

  @Test("the connection dropping and coming back each notify a view of the connection once")
  func connectionDropAndRecovery() async throws {
    // The drop is a network fault, not a server going away: the fault proxy between the client
    // and the server refuses connections and breaks the open ones, then lets them through.
    let server = YorkieDevServer(configuration: YorkieDevServer.Configuration())
    let url = try server.start()
    defer { server.stop() }
    let proxy = try FaultProxy(target: url)
    let proxyURL = proxy.start()
    defer { proxy.stop() }
    let ann = try await client(proxyURL, "ann")
    let doc = Document(key: "model-drop")
    try await ann.attach(doc)
    let model = DocumentModel(document: doc, client: ann)
    #expect(await eventually { model.connection == .connected && model.isSaved })
    await settle()
    let connection = ObservationCounter { _ = model.connection }

    proxy.mode = .refuse
    proxy.resetAll()
    #expect(await eventually { model.connection == .disconnected })
    // Retries keep failing meanwhile (every 0.3 s at most): the connection stays what it was.
    try await Task.sleep(nanoseconds: 700_000_000)
    #expect(model.connection == .disconnected)
    #expect(connection.count == 1)

    // An edit while offline is unsaved; it is saved once the connection is back.
    try await model.update { root, _ in root["offline"] = true }
    #expect(model.isSaved == false)

    proxy.mode = .pass
    #expect(await eventually { model.connection == .connected && model.isSaved })
    await settle()
    #expect(connection.count == 2)
    #expect(model.value == ["offline": true])
    connection.stop()
    await ann.close()
  }
}
