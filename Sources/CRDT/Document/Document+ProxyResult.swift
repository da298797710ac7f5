// The proxies (JSONObject, JSONArray, JSONText, JSONCounter, Presence) are valid only while the
// updater of `Document.update` runs; `update` returns only Sendable results for that reason.
// Without these declarations, an updater whose last expression is a proxy, such as
// `{ root, _ in root.setNewText("t") }`, fails with "type 'JSONText' does not conform to the
// 'Sendable' protocol". An unavailable conformance says instead what to do: the compiler
// reports "conformance of 'JSONText' to 'Sendable' is unavailable: <message>" there (and
// wherever else a proxy would leave its update: a Task, another actor). An unavailable
// overload of `update` cannot do it: a missing Sendable conformance does not rule out the
// generic overload while overloads are chosen, so the available one always wins.

@available(*, unavailable, message: "a proxy is valid only inside its update: discard it ('_ = root.setNewText(\"t\")') or return a value read from it")
extension JSONObject: @unchecked Sendable {}

@available(*, unavailable, message: "a proxy is valid only inside its update: discard it ('_ = root.setNewArray(\"list\")') or return a value read from it")
extension JSONArray: @unchecked Sendable {}

@available(*, unavailable, message: "a proxy is valid only inside its update: discard it ('_ = root.setNewText(\"t\")') or return a value read from it")
extension JSONText: @unchecked Sendable {}

@available(*, unavailable, message: "a proxy is valid only inside its update: discard it ('_ = root.setNewCounter(\"c\", .int(0))') or return a value read from it")
extension JSONCounter: @unchecked Sendable {}

@available(*, unavailable, message: "a proxy is valid only inside its update: discard it ('_ = root.setNewTree(\"content\")') or return a value read from it")
extension JSONTree: @unchecked Sendable {}

@available(*, unavailable, message: "a proxy is valid only inside its update: return a value read from it instead")
extension Presence: @unchecked Sendable {}
