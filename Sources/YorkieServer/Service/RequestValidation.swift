import YorkieProtocol

// Checks of request fields at the service's boundary, each failing with the error Yorkie gives
// (yorkie-protocol.md section 3, "Identifier formats", and 5.8).

enum RequestValidation {
  /// The client id of a request: 24 hexadecimal characters.
  static func clientID(_ text: String) throws(ServiceError) -> ResourceID {
    guard let id = ResourceID(hex: text) else { throw .invalidHexString(text) }
    return id
  }

  /// A document, session or revision id: 24 hexadecimal characters.
  static func objectID(_ text: String) throws(ServiceError) -> ResourceID {
    guard let id = ResourceID(hex: text) else { throw .invalidID(text) }
    return id
  }

  /// Whether `byte` may appear in a key: `[A-Za-z0-9-._~]`.
  private static func isKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: return true
    default: return false
    }
  }

  /// A document key: 4 to 120 characters from `[A-Za-z0-9-._~]`.
  static func documentKey(_ key: String) throws(ServiceError) -> String {
    let utf8 = key.utf8
    guard (4...120).contains(utf8.count), utf8.allSatisfy(isKeyByte) else { throw .invalidKey }
    return key
  }

  /// A channel key: a document key that also neither starts nor ends with `.` nor holds `..`
  /// (dots separate the levels of a channel's path).
  static func channelKey(_ key: String) throws(ServiceError) -> String {
    let utf8 = Array(key.utf8)
    guard (4...120).contains(utf8.count), utf8.allSatisfy(isKeyByte), utf8.first != 0x2E, utf8.last != 0x2E,
      !zip(utf8, utf8.dropFirst()).contains(where: { $0 == 0x2E && $1 == 0x2E })
    else { throw .invalidChannelKey }
    return key
  }

  /// The change pack a document RPC must carry, with its checkpoint.
  static func changePack(_ pack: WireChangePack?) throws(ServiceError) -> (WireChangePack, WireCheckpoint) {
    guard let pack else { throw .packRequired }
    guard let checkpoint = pack.checkpoint else { throw .checkpointRequired }
    return (pack, checkpoint)
  }
}
