/// An RPC as Yorkie's auth webhook names it: the `method` of the webhook request, and the names a
/// project lists in ``Project/authWebhookMethods`` (yorkie-protocol.md section 5.7).
///
/// The names are not always the RPC's: PushPullChanges is `PushPull`, and the Watch RPCs are all
/// `Watch`.
package enum AuthMethod: String, Sendable, Hashable, CaseIterable {
  /// ActivateClient.
  case activateClient = "ActivateClient"
  /// DeactivateClient.
  case deactivateClient = "DeactivateClient"
  /// AttachDocument.
  case attachDocument = "AttachDocument"
  /// DetachDocument.
  case detachDocument = "DetachDocument"
  /// RemoveDocument.
  case removeDocument = "RemoveDocument"
  /// PushPullChanges.
  case pushPull = "PushPull"
  /// Watch, and the deprecated WatchDocument and WatchChannel.
  case watch = "Watch"
  /// CreateRevision.
  case createRevision = "CreateRevision"
  /// GetRevision.
  case getRevision = "GetRevision"
  /// ListRevisions.
  case listRevisions = "ListRevisions"
  /// RestoreRevision.
  case restoreRevision = "RestoreRevision"
  /// AttachChannel.
  case attachChannel = "AttachChannel"
  /// DetachChannel.
  case detachChannel = "DetachChannel"
  /// RefreshChannel.
  case refreshChannel = "RefreshChannel"
  /// PeekChannel.
  case peekChannel = "PeekChannel"
  /// Broadcast.
  case broadcast = "Broadcast"

  /// Every name that selects this method in a project's list: its own, and for ``watch`` the
  /// legacy `WatchDocument` and `WatchChannel`.
  package var namesInProjectList: [String] {
    self == .watch ? [rawValue, "WatchDocument", "WatchChannel"] : [rawValue]
  }

  /// Whether `project` asks its webhook before this method: it has a webhook URL and lists the
  /// method under one of its ``namesInProjectList``.
  package func isGuarded(in project: Project) -> Bool {
    project.authWebhookURL != nil && namesInProjectList.contains { project.authWebhookMethods.contains($0) }
  }
}
