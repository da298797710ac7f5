import Foundation
import Testing
import YorkieProtocol

/// The replay's binary decoder against the recordings' own reference: every `binaryDecoded`
/// item (decoded by Yorkie's Go protobuf library) must come out of ``ReplayProtoDecoder`` the
/// same, semantically.
@Suite("Replay: binary decoder")
struct ReplayDecoderTests {
  @Test("every binaryDecoded item decodes to its protojson", arguments: ReplayRecording.names)
  func binaryDecodedItems(name: String) throws {
    let recording = try ReplayRecording.load(name)
    for item in recording.root["binaryDecoded"]?["items"]?.replayArray ?? [] {
      let location = try #require(item["where"]?.replayString)
      let message = try #require(item["message"]?.replayString).replacingOccurrences(of: "yorkie.v1.", with: "")
      let text = try #require(recording.root[replayPath: ReplayDecoderTests.path(location)]?.replayString, "\(name): nothing at \(location)")
      let decoded = try ReplayProtoDecoder.decode(try #require(ReplayBytes.fromBase64(text)), as: message)
      let differences = ReplayComparator.differences(expected: try #require(item["protojson"]), actual: decoded)
      #expect(differences.isEmpty, "\(name) \(location): \(differences.map(\.description).joined(separator: "; "))")
    }
  }

  @Test("an ErrorInfo detail decodes to reason and metadata")
  func errorInfo() throws {
    // From 01-client-lifecycle.json, exchange 7 (not_found / ErrClientNotFound, unpadded).
    let decoded = try ReplayProtoDecoder.decode(try #require(ReplayBytes.fromBase64("Cglub3RfZm91bmQaGQoEY29kZRIRRXJyQ2xpZW50Tm90Rm91bmQ")), as: "ErrorInfo")
    #expect(decoded == .object([.init("reason", .string("not_found")), .init("metadata", .object([.init("code", .string("ErrClientNotFound"))]))]))
  }

  @Test("truncated input is an error, not a crash")
  func truncated() {
    #expect(throws: ReplayError.self) { try ReplayProtoDecoder.decode([0x0A, 0x05, 0x12], as: "JSONElement") }
  }

  /// `exchanges[1].response.changePack.changes[1]` as path components.
  static func path(_ text: String) -> [ReplayPathComponent] {
    var result: [ReplayPathComponent] = []
    for part in text.split(separator: ".") {
      var name = Substring(part)
      var indexes: [Int] = []
      while let open = name.lastIndex(of: "["), name.hasSuffix("]"), let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) {
        indexes.insert(index, at: 0)
        name = name[..<open]
      }
      if !name.isEmpty { result.append(.key(String(name))) }
      result += indexes.map(ReplayPathComponent.index)
    }
    return result
  }
}
