import Testing

@testable import YorkieServer

/// `AuthWebhookRequest`: the bytes of the webhook request body, and that its token never shows.
@Suite("Auth webhook request body")
struct AuthWebhookRequestTests {
  /// The body as text.
  private func text(_ request: AuthWebhookRequest) -> String {
    String(decoding: request.body, as: UTF8.self)
  }

  @Test("Fields in Yorkie's order, attributes as an array")
  func body() {
    let request = AuthWebhookRequest(
      token: "tok", method: .attachDocument,
      attributes: [AccessAttribute(key: "doc-1", verb: .readWrite), AccessAttribute(key: "doc-2", verb: .read)])
    #expect(text(request) == #"{"token":"tok","method":"AttachDocument","attributes":[{"key":"doc-1","verb":"rw"},{"key":"doc-2","verb":"r"}]}"#)
  }

  @Test("No attributes: null, as Go marshals a nil slice")
  func noAttributes() {
    let request = AuthWebhookRequest(token: "", method: .activateClient, attributes: [])
    #expect(text(request) == #"{"token":"","method":"ActivateClient","attributes":null}"#)
  }

  @Test("Strings are escaped as Go's encoding/json does")
  func escapes() {
    var output: [UInt8] = []
    AuthWebhookRequest.appendJSONString("a\"b\\c\n\r\t\u{8}\u{C}\u{1}<>&\u{2028}\u{2029}é😀\u{7F}/", to: &output)
    #expect(String(decoding: output, as: UTF8.self) == #""a\"b\\c\n\r\t\b\f\u0001\u003c\u003e\u0026\u2028\u2029é😀"# + "\u{7F}/\"")
  }

  @Test("The token is redacted from description, debugDescription and dump")
  func redacted() {
    let request = AuthWebhookRequest(token: "s3cr3t-token", method: .pushPull, attributes: [AccessAttribute(key: "doc", verb: .read)])
    var dumped = ""
    dump(request, to: &dumped)
    for text in [request.description, request.debugDescription, String(describing: request), "\(request)", dumped] {
      #expect(!text.contains("s3cr3t-token"))
      #expect(text.contains("<redacted>"))
    }
    #expect(request.description.contains("PushPull"))
  }
}
