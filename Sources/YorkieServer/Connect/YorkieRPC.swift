/// The methods of `yorkie.v1.YorkieService` this server knows, by their URL names.
package enum YorkieRPC: String, CaseIterable, Sendable {
  case activateClient = "ActivateClient"
  case deactivateClient = "DeactivateClient"
  case attachDocument = "AttachDocument"
  case detachDocument = "DetachDocument"
  case removeDocument = "RemoveDocument"
  case pushPullChanges = "PushPullChanges"
  case watch = "Watch"
  case watchDocument = "WatchDocument"
  case watchChannel = "WatchChannel"
  case broadcast = "Broadcast"
  case attachChannel = "AttachChannel"
  case detachChannel = "DetachChannel"
  case refreshChannel = "RefreshChannel"
  case peekChannel = "PeekChannel"
  case createRevision = "CreateRevision"
  case getRevision = "GetRevision"
  case listRevisions = "ListRevisions"
  case restoreRevision = "RestoreRevision"

  /// The URL prefix of every method.
  package static let pathPrefix = "/yorkie.v1.YorkieService/"

  /// Whether the method is a server stream (enveloped request and response).
  package var isStreaming: Bool {
    switch self {
    case .watch, .watchDocument, .watchChannel: return true
    default: return false
    }
  }

  /// The method named by a request path, or `nil`.
  package init?(path: String) {
    guard path.hasPrefix(Self.pathPrefix) else { return nil }
    self.init(rawValue: String(path.dropFirst(Self.pathPrefix.count)))
  }
}
