import CRDT
import Foundation
import YorkieProtocol

/// One Yorkie client attached to one document that pushes one Set per change: server-load.py's
/// `Writer`, with the same requests.
///
/// Each change sets root key `k<n % 64>` to the integer `n`, its ticket made by hand from the
/// client's own Lamport clock; the client's version vector follows every change it pulls.
final class BenchClient {
  /// The connection (keep-alive).
  private let connection: HTTPConnection
  /// The attached document's key.
  let documentKey: String
  /// The client's ID (24 hex digits).
  let clientID: String
  /// The client's actor ID: the client ID's 12 bytes.
  private let actorID: Data
  /// The attached document's ID.
  let documentID: String
  /// The client's Lamport clock.
  private var lamport: Int64 = 0
  /// The sequence number of the client's last change.
  private var clientSeq: UInt32 = 0
  /// The server sequence the client has pulled up to.
  private var serverSeq: Int64 = 0
  /// The client's version vector: base64 actor ID to Lamport time.
  private var vector: [String: Int64] = [:]

  /// Activates a client named `clientKey` and attaches `documentKey` (an empty pack).
  ///
  /// - Throws: ``BenchError`` when the server refuses or answers something unreadable.
  init(address: ServerAddress, documentKey: String, clientKey: String) throws(BenchError) {
    connection = HTTPConnection(address: address)
    self.documentKey = documentKey
    let activated = try Self.decode(ActivateClientResponse.self, from: connection.call(
      "ActivateClient", shardKey: clientKey, body: Array(ActivateClientRequest(clientKey: clientKey).jsonData)))
    clientID = activated.clientID
    guard let actor = Self.bytes(hex: clientID) else { throw BenchError("ActivateClient: a client ID that is not hex: \(clientID)") }
    actorID = actor
    let request = AttachDocumentRequest(clientID: clientID, changePack: WireChangePack(
      documentKey: documentKey, checkpoint: WireCheckpoint(), versionVector: WireVersionVector()))
    let attached = try Self.decode(AttachDocumentResponse.self, from: connection.call(
      "AttachDocument", shardKey: documentKey, body: Array(request.jsonData)))
    documentID = attached.documentID
    absorb(attached.changePack)
  }

  /// Pushes one change that sets `k<n % 64>` to `n`, and takes in what the response pulls.
  ///
  /// - Throws: ``BenchError`` when the call fails.
  func push(_ n: Int) throws(BenchError) {
    clientSeq += 1
    lamport += 1
    let actorKey = actorID.base64EncodedString()
    vector[actorKey] = lamport
    let ticket = WireJSON.object([
      .init("lamport", .string(String(lamport))), .init("delimiter", .number("1")), .init("actorId", .string(actorKey)),
    ])
    let set = WireJSON.object([
      .init("parentCreatedAt", .object([.init("actorId", .string("AAAAAAAAAAAAAAAA"))])),
      .init("key", .string("k\(n % 64)")),
      .init("value", .object([
        .init("createdAt", ticket), .init("type", .string("VALUE_TYPE_INTEGER")),
        .init("value", .string(Self.littleEndian(Int32(truncatingIfNeeded: n)).base64EncodedString())),
      ])),
      .init("executedAt", ticket),
    ])
    let id = WireChangeID(clientSeq: clientSeq, lamport: lamport, actorID: actorID, versionVector: WireVersionVector(vector: vector))
    let change: WireChange
    do {
      change = try WireChange(json: .object([.init("id", id.json), .init("operations", .array([.object([.init("set", set)])]))]))
    } catch {
      throw BenchError("the change to push does not read back: \(error)")
    }
    let request = PushPullChangesRequest(clientID: clientID, documentID: documentID, changePack: WireChangePack(
      documentKey: documentKey, checkpoint: WireCheckpoint(serverSeq: serverSeq, clientSeq: clientSeq),
      changes: [change], versionVector: WireVersionVector(vector: vector)))
    let response = try Self.decode(PushPullChangesResponse.self, from: connection.call(
      "PushPullChanges", shardKey: documentKey, body: Array(request.jsonData)))
    absorb(response.changePack)
  }

  /// Opens a Watch stream of the attached document on this client's connection, which the
  /// stream then keeps (the client can push no more).
  ///
  /// - Returns: The stream's socket and the body bytes received with the response head.
  func openWatch() throws(BenchError) -> (fd: Int32, received: [UInt8]) {
    let request = WatchRequest(clientID: clientID, resources: [.document(WireDocumentResource(documentID: documentID))])
    return try connection.openStream("Watch", shardKey: documentKey, envelope: ConnectEnvelope(message: request).bytes)
  }

  /// Moves the checkpoint, clock and version vector past what a response pack carries.
  private func absorb(_ pack: WireChangePack?) {
    guard let pack else { return }
    serverSeq = max(serverSeq, pack.checkpoint?.serverSeq ?? 0)
    for change in pack.changes {
      guard let id = change.id else { continue }
      lamport = max(lamport, id.lamport)
      let key = id.actorID.base64EncodedString()
      vector[key] = max(vector[key] ?? 0, id.lamport)
    }
  }

  /// Decodes a response body as `type`.
  private static func decode<M: WireMessage>(_ type: M.Type, from body: [UInt8]) throws(BenchError) -> M {
    do {
      return try M(jsonData: body)
    } catch {
      throw BenchError("unreadable \(M.self): \(error)")
    }
  }

  /// The bytes of a hex string, or `nil` if it is not one.
  private static func bytes(hex: String) -> Data? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var result = Data()
    for i in stride(from: 0, to: digits.count, by: 2) {
      guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
      result.append(byte)
    }
    return result
  }

  /// `value`'s four bytes, least significant first (Yorkie's encoding of an integer value).
  private static func littleEndian(_ value: Int32) -> Data {
    withUnsafeBytes(of: value.littleEndian) { Data($0) }
  }
}
