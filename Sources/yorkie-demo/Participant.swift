import Foundation
import YorkieClient

/// One scripted client: its `Client`, its replica of the shared document, its session on the
/// channel, and what it has seen.
actor Participant {
  /// Who it is.
  nonisolated let role: Role
  /// The client.
  nonisolated let client: Client
  /// Its replica of the shared document.
  nonisolated let document: Document
  /// The shared channel.
  nonisolated let room: Channel
  /// What it sees of the others.
  nonisolated let observer: PeerObserver
  /// Where lines go.
  let log: DemoLog
  /// The seeded source of its choices and pauses.
  var rng: SplitMix64
  /// Its cursor in the text, as a position that follows everyone's edits.
  var cursor: TextPosition?
  /// The sum of its counter increases.
  var likesAdded: Int64 = 0

  /// The client's name.
  nonisolated var name: String { role.name }

  /// A client for `role` of the server at `url`; `seed` and `index` seed its generator.
  init(role: Role, index: Int, url: URL, documentKey: String, roomKey: String, seed: UInt64, log: DemoLog) {
    self.role = role
    self.client = Client(url, options: ClientOptions(key: role.name, metadata: ["name": role.name]))
    self.document = Document(key: documentKey)
    self.room = Channel(key: roomKey)
    self.observer = PeerObserver(name: role.name, log: log)
    self.log = log
    self.rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
  }

  /// Activates the client and attaches the document in realtime mode; the first client to
  /// attach creates the shape, the others find it in place. Returns once the server has it.
  func join() async throws {
    try await client.activate()
    guard let id = await client.id else { throw DemoError("\(name) has no client ID after activating") }
    log.register(id: id.hex, as: name)
    await observer.listen(to: client)
    await observer.watch(document)
    let events = await document.events()
    try await client.attach(
      document, initialPresence: ["name": .string(name), "color": .string(role.color), "cursor": 0],
      syncMode: .realtime, initialRoot: Shape.initialRoot)
    // The attach set the keys the document lacked in a local change, before it marked the
    // document attached: the events up to that mark say whether this client made the shape.
    var createdShape = false
    for await event in events {
      if case .localChange(let change) = event, change.operations.contains(where: { $0.type == .set }) { createdShape = true }
      if event == .statusChanged(.attached) { break }
    }
    try await client.waitUntilAcknowledged(document)
    let me = await document.actorID
    let peers = await document.presences.filter { $0.actorID != me }.map { log.name(of: $0.actorID) }.sorted()
    let shape = createdShape ? "created the shape" : "found the shape in place"
    log.event(name, "activated, attached as …\(me.hex.suffix(6)) · \(shape) · peers online: \(peers.isEmpty ? "none" : peers.joined(separator: ", "))")
  }

  /// Starts listening to the channel, then attaches it.
  func enterRoom() async throws {
    await observer.listen(to: room)
    try await client.attach(room)
  }

  /// Returns once the server acknowledged every change of this client.
  func settle() async throws {
    try await client.waitUntilAcknowledged(document)
  }

  /// Pushes and pulls now.
  func pull() async throws {
    try await client.sync(document)
  }

  /// Detaches the document and the channel and deactivates the client.
  func leave() async throws {
    try await client.detach(document)
    try await client.detach(room)
    try await client.deactivate()
    log.event(name, "detached and deactivated")
  }
}
