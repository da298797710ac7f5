/// The one error type of this SDK: a code to switch on, a message for humans, and the cause.
///
/// Codes are open-ended (a struct, not an enum) so that new ones can be added without breaking
/// a `switch` in an app; compare with `==` or match with `case .indexOutOfBounds`:
///
/// ```swift
/// do { try list.remove(at: 7) }
/// catch let error as YorkieError where error.code == .indexOutOfBounds { … }
/// ```
public struct YorkieError: Error, Sendable, CustomStringConvertible {
  /// What went wrong, as a stable identifier.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, such as `"indexOutOfBounds"`.
    public let rawValue: String

    /// Creates a code from its identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The identifier.
    public var description: String { rawValue }

    /// An object key Yorkie rejects (it contains `.`).
    public static let invalidKey = Code("invalidKey")
    /// An index or range outside the container.
    public static let indexOutOfBounds = Code("indexOutOfBounds")
    /// A number JSON cannot carry (NaN or infinite), or a date a JavaScript date cannot (NaN, or
    /// more than 100,000,000 days from 1970).
    public static let invalidNumber = Code("invalidNumber")
    /// An actor ID that is not 12 bytes / 24 hex characters.
    public static let invalidActorID = Code("invalidActorID")
    /// An element, node or position that the document does not have.
    public static let elementNotFound = Code("elementNotFound")
    /// A local edit that refers to an element that was removed.
    public static let elementRemoved = Code("elementRemoved")
    /// An element of another kind than the operation expects.
    public static let typeMismatch = Code("typeMismatch")
    /// A proxy used after the `update` that handed it out returned.
    public static let proxyExpired = Code("proxyExpired")
    /// A path that `value(atPath:)` cannot parse.
    public static let invalidPath = Code("invalidPath")
    /// A change pack that cannot be applied (wrong document, inconsistent clocks).
    public static let invalidChangePack = Code("invalidChangePack")
    /// An edit of a document that was removed.
    public static let documentRemoved = Code("documentRemoved")
    /// An edit of a document whose attachment to a client ended (a detach, a deactivate, a
    /// close, or a sync that stopped for good): its edits would reach no one. Attach a new
    /// `Document` with the same key to go on.
    public static let documentDetached = Code("documentDetached")
    /// Malformed input from the wire or a snapshot.
    public static let invalidWireData = Code("invalidWireData")
    /// A primitive or counter value (from the wire or a snapshot) whose payload has the wrong
    /// size for its type, such as an `INTEGER` of 1 byte. Otherwise like ``invalidWireData``;
    /// a distinct code because Yorkie's server answers it differently (`internal`, where other
    /// malformed changes are `invalid_argument`).
    public static let invalidValueEncoding = Code("invalidValueEncoding")
    /// A restore edit (identity-preserving undo/redo) names a text insertion that its change
    /// had not seen: its actor is missing from the change's version vector, or the vector's
    /// lamport for that actor is smaller (Yorkie's `ErrUnknownRestoreIdentity`).
    public static let unknownRestoreIdentity = Code("unknownRestoreIdentity")
    /// Something this SDK does not implement yet (Yorkie's Tree).
    public static let unsupported = Code("unsupported")
    /// A snapshot that cannot be loaded (malformed, or not this document's).
    public static let invalidSnapshot = Code("invalidSnapshot")
    /// A remote change that depends on changes this replica has not applied yet (an earlier
    /// change of its author, or a change its version vector has seen). Apply those first.
    public static let changeNotReady = Code("changeNotReady")
    /// A remote change that claims this replica's actor (or the initial actor) but that this
    /// replica did not make: two replicas share an actor, or one never set its own.
    public static let actorConflict = Code("actorConflict")
    /// Changes asked for, or an actor change refused, while the replica still writes as
    /// ``ActorID/initial`` or after it has an actor: see ``Document/setActor(_:)``.
    public static let actorNotSet = Code("actorNotSet")
    /// An argument outside what the call accepts (the message names it).
    public static let invalidArgument = Code("invalidArgument")
    /// Text given to ``JSONValue/init(parsing:)`` is not JSON; ``YorkieError/offset`` says where.
    public static let invalidJSON = Code("invalidJSON")
    /// A tree position names a node this replica does not have (or a text node as parent).
    public static let treeNodeNotFound = Code("treeNodeNotFound")
    /// Tree content that is not a tree: an empty text, text with children, a node list that
    /// does not nest, an identity used twice or already in the tree.
    public static let invalidTreeContent = Code("invalidTreeContent")
    /// A split level below 0, deeper than the position, or without a ticket per level.
    public static let invalidSplitLevel = Code("invalidSplitLevel")
    /// A tree range whose start comes after its end, or an offset inside a surrogate pair.
    public static let invalidTreeRange = Code("invalidTreeRange")
    /// An `Encodable` value that ``JSONValueEncoder`` cannot turn into a ``JSONValue`` (a
    /// container its `encode(to:)` left empty, two values at one place); ``YorkieError/field``
    /// is the path of the offending value, such as `$.todos.2.due`. A number Yorkie cannot
    /// store is ``invalidNumber`` and a key with a `.` is ``invalidKey``, with the path too.
    public static let encodingFailed = Code("encodingFailed")
    /// A ``JSONValue`` that does not decode into the requested `Decodable` type (a missing key,
    /// another kind of value, a number that does not fit the Swift type); ``YorkieError/field``
    /// is the path that did not decode, such as `$.todos.2.due`, and
    /// ``YorkieError/underlying`` the `DecodingError` that says how.
    public static let decodingFailed = Code("decodingFailed")
    /// ``Document/undo()`` with an empty undo stack (check ``Document/canUndo``); Yorkie's
    /// `ErrRefused` "There is no operation to be undone".
    public static let nothingToUndo = Code("nothingToUndo")
    /// ``Document/redo()`` with an empty redo stack (check ``Document/canRedo``).
    public static let nothingToRedo = Code("nothingToRedo")
  }

  /// What went wrong.
  public let code: Code
  /// A sentence for humans; never parse it.
  public let message: String
  /// Where in the input the error is, when it is about one field of wire data or a snapshot:
  /// a path such as `changePack.changes[3].operations[0].set.value`; nil otherwise.
  ///
  /// Match on this instead of reading ``message``.
  public let field: String?
  /// Where in parsed text the error is, as a UTF-8 byte offset from its start
  /// (``Code/invalidJSON``); nil for errors that are not about a position in text.
  public let offset: Int?
  /// The error that caused this one, if any.
  public let underlying: (any Error & Sendable)?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - message: A sentence for humans.
  ///   - field: The path of the offending input field, when there is one.
  ///   - offset: The UTF-8 byte offset of the error in parsed text, when there is one.
  ///   - underlying: The error that caused this one.
  public init(_ code: Code, _ message: String, field: String? = nil, offset: Int? = nil, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.message = message
    self.field = field
    self.offset = offset
    self.underlying = underlying
  }

  /// `code: message`, followed by the cause when there is one.
  public var description: String {
    if let underlying { return "\(code): \(message) (caused by \(underlying))" }
    return "\(code): \(message)"
  }
}
