import Foundation
import Testing

@testable import YorkieServer

/// `AuthMethod` and `AccessAttribute`: Yorkie's webhook names, and which methods a project guards.
@Suite("Auth methods")
struct AuthMethodTests {
  /// A webhook URL that is never called here.
  private let url = URL(string: "http://127.0.0.1:1/auth")!

  @Test("The sixteen method names are Yorkie's")
  func names() {
    #expect(AuthMethod.allCases.map(\.rawValue) == [
      "ActivateClient", "DeactivateClient", "AttachDocument", "DetachDocument", "RemoveDocument", "PushPull", "Watch",
      "CreateRevision", "GetRevision", "ListRevisions", "RestoreRevision", "AttachChannel", "DetachChannel",
      "RefreshChannel", "PeekChannel", "Broadcast",
    ])
    #expect(AccessAttribute.Verb.read.rawValue == "r")
    #expect(AccessAttribute.Verb.readWrite.rawValue == "rw")
  }

  @Test("A method is guarded only with a webhook URL and the method listed")
  func guarded() {
    let listed = Project(name: "p", publicKey: "k", authWebhookURL: url, authWebhookMethods: ["AttachDocument"])
    #expect(AuthMethod.attachDocument.isGuarded(in: listed))
    #expect(!AuthMethod.pushPull.isGuarded(in: listed))
    let noURL = Project(name: "p", publicKey: "k", authWebhookMethods: ["AttachDocument"])
    #expect(!AuthMethod.attachDocument.isGuarded(in: noURL))
    let noMethods = Project(name: "p", publicKey: "k", authWebhookURL: url)
    #expect(AuthMethod.allCases.allSatisfy { !$0.isGuarded(in: noMethods) })
  }

  @Test("Watch is guarded by Watch and by the legacy WatchDocument and WatchChannel")
  func legacyWatchNames() {
    for name in ["Watch", "WatchDocument", "WatchChannel"] {
      let project = Project(name: "p", publicKey: "k", authWebhookURL: url, authWebhookMethods: [name])
      #expect(AuthMethod.watch.isGuarded(in: project))
      #expect(AuthMethod.allCases.filter { $0.isGuarded(in: project) } == [.watch])
    }
  }

  @Test("Names are matched exactly: PushPullChanges or lower case guard nothing")
  func exactNames() {
    let project = Project(
      name: "p", publicKey: "k", authWebhookURL: url, authWebhookMethods: ["PushPullChanges", "attachdocument"])
    #expect(AuthMethod.allCases.allSatisfy { !$0.isGuarded(in: project) })
  }
}
