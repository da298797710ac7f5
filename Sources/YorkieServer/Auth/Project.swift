import Foundation

/// A Yorkie project: the unit that API keys select and that carries the settings clients feel
/// (yorkie-protocol.md section 5.1). A request without `x-api-key` uses the server's default
/// project (unless ``YorkieDevServer/Configuration/useDefaultProject`` is off).
public struct Project: Sendable, Hashable {
  /// The project's name, for logs.
  public var name: String
  /// The public key clients send as `x-api-key`; empty for the default project.
  public var publicKey: String
  /// The auth webhook to ask before the guarded RPCs, or `nil` for none.
  public var authWebhookURL: URL?
  /// The RPCs the webhook guards, by Yorkie's method names (`ActivateClient`, `AttachDocument`,
  /// `PushPull`, `Watch`, `Broadcast`, …). The webhook is called only when this is not empty.
  public var authWebhookMethods: Set<String>
  /// How many Watch streams a document may have; 0 means no limit.
  public var maxSubscribersPerDocument: Int
  /// How many clients may attach a document at once; 0 means no limit.
  public var maxAttachmentsPerDocument: Int
  /// Whether detaching the last attached client removes the document.
  public var removeOnDetach: Bool
  /// The document size limit reported to clients on attach (clients enforce it); 10 MiB by default.
  public var maxSizePerDocument: Int32

  /// A project with the given settings; each omitted one takes Yorkie's default.
  public init(
    name: String, publicKey: String, authWebhookURL: URL? = nil, authWebhookMethods: Set<String> = [],
    maxSubscribersPerDocument: Int = 0, maxAttachmentsPerDocument: Int = 0, removeOnDetach: Bool = false,
    maxSizePerDocument: Int32 = 10 * 1024 * 1024
  ) {
    self.name = name
    self.publicKey = publicKey
    self.authWebhookURL = authWebhookURL
    self.authWebhookMethods = authWebhookMethods
    self.maxSubscribersPerDocument = maxSubscribersPerDocument
    self.maxAttachmentsPerDocument = maxAttachmentsPerDocument
    self.removeOnDetach = removeOnDetach
    self.maxSizePerDocument = maxSizePerDocument
  }

  /// The project used by requests without an API key.
  public static let `default` = Project(name: "default", publicKey: "")
}
