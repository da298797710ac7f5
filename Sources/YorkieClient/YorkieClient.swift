@_exported import CRDT

/// The Yorkie client: connects documents to a Yorkie server. The networking layer lands with
/// the client issue; this module already re-exports `CRDT` so apps write one import.
public enum YorkieClientInfo {
  /// The SDK's name and version as sent in `x-yorkie-user-agent`.
  public static let userAgent = "yorkie-swift-sdk/0.1.0"
}
