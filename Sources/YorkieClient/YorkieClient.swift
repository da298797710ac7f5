@_exported import CRDT

/// The SDK's identity as the client announces it to servers. (The module re-exports `CRDT`, so
/// an app writes one import.)
public enum YorkieClientInfo {
  /// The SDK's name and version as sent in `x-yorkie-user-agent`.
  public static let userAgent = "yorkie-swift-sdk/0.1.0"
}
