import Testing
import YorkieClient

@Test("YorkieClient re-exports the CRDT module")
func reexportsCRDT() async throws {
  let doc = Document(key: "re-export")
  try await doc.update { root, _ in root["ok"] = true }
  #expect(await doc.toJSON() == #"{"ok":true}"#)
  #expect(YorkieClientInfo.userAgent.hasPrefix("yorkie-swift-sdk/"))
}
