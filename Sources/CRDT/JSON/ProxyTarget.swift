/// What a proxy stands for: an element the document owns, or, for the proxy a setter hands out
/// when it could not make its element (`setNewObject("a.b")`), the error that setter recorded.
///
/// A rejected proxy names no element at all, so nothing done through it can reach memory the
/// document does not own: every edit through it fails with the setter's error (the update
/// throws that error anyway), and every read answers as for an absent element.
enum ProxyTarget<Element: CRDTElement> {
  case element(Element)
  case rejected(YorkieError)

  /// The element, for an edit: throws `proxyExpired` once the update returned, and the setter's
  /// error for a rejected proxy.
  @inline(__always) func editable(_ context: UpdateContext) throws(YorkieError) -> Element {
    try context.ensureActive()
    switch self {
    case .element(let element): return element
    case .rejected(let error): throw error
    }
  }

  /// The element, for a read: nil once the update returned and for a rejected proxy.
  @inline(__always) func readable(_ context: UpdateContext) -> Element? {
    guard context.isActive, case .element(let element) = self else { return nil }
    return element
  }
}
