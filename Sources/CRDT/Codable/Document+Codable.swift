import Foundation

// Codable at the document's edges: reading an app's own types out of a document, and writing
// them into one inside an update. Both go through JSONValue, so what is stored is exactly what
// `root[key] = value` would store, and peers in other languages read plain JSON.

extension Document {
  /// The value at `path` decoded as `type`:
  ///
  /// ```swift
  /// struct Todo: Codable { var title: String; var done: Bool }
  /// let todos = try await doc.decode([Todo].self, at: "$.todos")
  /// ```
  ///
  /// The value is read on the document and decoded off it, so a large decode does not hold up
  /// edits. A path with no value decodes as `null`: an optional type gives nil, any other type
  /// fails with the path. A text decodes as its JSON form (an array of `{"val": …}` spans);
  /// a counter as its number.
  ///
  /// - Parameters:
  ///   - type: The type to decode; see ``JSONValueDecoder`` for how numbers, dates and bytes map.
  ///   - path: A path as ``value(atPath:)`` reads it; `$`, the root, by default.
  /// - Throws: ``YorkieError`` `decodingFailed` with the path that did not decode
  ///   (``YorkieError/field``, such as `$.todos.2.due`); `invalidPath` for a path that does
  ///   not start at `$` or uses bracket notation.
  public nonisolated func decode<Value: Decodable & SendableMetatype>(
    _ type: Value.Type, at path: String = "$", using decoder: JSONValueDecoder = JSONValueDecoder()
  ) async throws -> sending Value {
    let value = try await self.value(atPath: path) ?? .null
    return try decoder.decode(Value.self, from: value, at: path)
  }
}

extension JSONObject {
  /// Sets `key` to `value` encoded as a ``JSONValue`` (see ``JSONValueEncoder``): nested
  /// structs become objects, arrays arrays, as `self[key] = …` with the encoded value would.
  ///
  /// ```swift
  /// try await doc.update { root, _ in
  ///   try root.set("todo", encoding: Todo(title: "milk", done: false))
  /// }
  /// ```
  ///
  /// - Throws: ``YorkieError`` from the encoder, whose ``YorkieError/field`` is the full path of
  ///   the value that failed (`$.todo.due`); nothing is set then. The errors of setting a value
  ///   otherwise (`invalidKey` for a key with a `.`, `proxyExpired`).
  public func set<Value: Encodable>(_ key: String, encoding value: Value, using encoder: JSONValueEncoder = JSONValueEncoder()) throws {
    try JSONObject.validate(key: key)
    let encoded = try encoder.encode(value, at: elementPath + "." + key)
    try set(key, encoded)
  }
}

extension JSONArray {
  /// Appends `value` encoded as a ``JSONValue`` (see ``JSONValueEncoder``).
  ///
  /// - Throws: ``YorkieError`` from the encoder, whose ``YorkieError/field`` is the full path
  ///   the value would have had (`$.todos.3.due`); nothing is appended then.
  public func append<Value: Encodable>(encoding value: Value, using encoder: JSONValueEncoder = JSONValueEncoder()) throws {
    try append(try encoder.encode(value, at: elementPath + ".\(count)"))
  }

  /// Inserts `value`, encoded as a ``JSONValue``, so that it ends up at `index` (0...count).
  ///
  /// - Throws: ``YorkieError`` from the encoder (with the path the value would have had), or
  ///   `indexOutOfBounds`; nothing is inserted then.
  public func insert<Value: Encodable>(encoding value: Value, at index: Int, using encoder: JSONValueEncoder = JSONValueEncoder()) throws {
    try insert(try encoder.encode(value, at: elementPath + ".\(index)"), at: index)
  }

  /// Replaces the element at `index` with `value` encoded as a ``JSONValue``.
  ///
  /// - Throws: ``YorkieError`` from the encoder (with the element's path), or
  ///   `indexOutOfBounds`; nothing changes then.
  public func set<Value: Encodable>(encoding value: Value, at index: Int, using encoder: JSONValueEncoder = JSONValueEncoder()) throws {
    try set(try encoder.encode(value, at: elementPath + ".\(index)"), at: index)
  }
}
