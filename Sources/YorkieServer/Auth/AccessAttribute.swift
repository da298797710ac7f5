/// What a request touches, as the auth webhook is told: a document or channel key and whether
/// the request only reads it or also writes it (yorkie-protocol.md sections 3 and 5.7).
package struct AccessAttribute: Sendable, Hashable {
  /// How a request uses the resource.
  package enum Verb: String, Sendable, Hashable, CaseIterable {
    /// Reads only (`"r"`).
    case read = "r"
    /// Reads and writes (`"rw"`).
    case readWrite = "rw"
  }

  /// The document key or channel key.
  package var key: String
  /// How the request uses it.
  package var verb: Verb

  /// An attribute for `key` used as `verb`.
  package init(key: String, verb: Verb) {
    self.key = key
    self.verb = verb
  }
}
