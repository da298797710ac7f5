/// What a proxy stands for: an element the document owns, or, for the proxy a setter hands out
/// when it could not make its element (`setNewObject("a.b")`), the error that setter recorded.
///
/// A rejected proxy names no element at all, so nothing done through it can reach memory the
/// document does not own: every edit through it fails with the setter's error (the update
/// throws that error anyway), and every read answers as for an absent element.
///
/// A struct of two optionals rather than an enum: proxies read `element` on every call (a
/// keystroke is one), and a stored optional reference is read without copying the error
/// payload an enum case would carry along.
struct ProxyTarget<Element: CRDTElement> {
  /// The element; nil for a rejected proxy.
  private let element: Element?
  /// Why the setter made no element; set exactly when `element` is nil.
  private let rejection: YorkieError?

  private init(element: Element?, rejection: YorkieError?) {
    self.element = element
    self.rejection = rejection
  }

  /// A proxy of `element`, which the document owns.
  static func element(_ element: Element) -> ProxyTarget { ProxyTarget(element: element, rejection: nil) }

  /// A proxy of nothing: the setter failed with `error`.
  static func rejected(_ error: YorkieError) -> ProxyTarget { ProxyTarget(element: nil, rejection: error) }

  /// The element, for an edit: throws `proxyExpired` once the update returned, and the setter's
  /// error for a rejected proxy.
  @inline(__always) func editable(_ context: UpdateContext) throws(YorkieError) -> Element {
    try context.ensureActive()
    guard let element else {
      throw rejection ?? YorkieError(.proxyExpired, "the proxy names no element")
    }
    return element
  }

  /// The element, for a read: nil once the update returned and for a rejected proxy.
  @inline(__always) func readable(_ context: UpdateContext) -> Element? {
    context.isActive ? element : nil
  }
}
