/// The projects a server knows, looked up by the API key a request carries (`x-api-key`,
/// yorkie-protocol.md sections 2.2 and 5.7).
///
/// A request without a key, or with an empty one, uses the default project; when the server has
/// none, it is refused as `unauthenticated` without details, as Yorkie does with
/// `UseDefaultProject` off. A key no project has is `not_found`/`ErrProjectNotFound`.
package struct ProjectRegistry: Sendable {
  /// The project for requests without an API key, or `nil` to refuse them.
  package let defaultProject: Project?
  /// Every project that has a public key, by that key.
  private let projectsByKey: [String: Project]

  /// A registry of `projects` and the default project.
  ///
  /// The default project is found by its public key too, when it has one. Projects with an empty
  /// public key cannot be selected by a key and are left out; when two projects share a key, the
  /// first one given wins (the default project before the others).
  package init(defaultProject: Project?, projects: [Project]) {
    self.defaultProject = defaultProject
    var byKey: [String: Project] = [:]
    for project in [defaultProject].compactMap({ $0 }) + projects where !project.publicKey.isEmpty {
      if byKey[project.publicKey] == nil { byKey[project.publicKey] = project }
    }
    projectsByKey = byKey
  }

  /// The project that `key` selects (`nil` or empty: the default project).
  ///
  /// - Throws: ``ServiceError/apiKeyNotProvided`` without a key and without a default project;
  ///   ``ServiceError/projectNotFound()`` for a key no project has.
  package func project(forAPIKey key: String?) throws(ServiceError) -> Project {
    guard let key, !key.isEmpty else {
      guard let defaultProject else { throw .apiKeyNotProvided }
      return defaultProject
    }
    guard let project = projectsByKey[key] else { throw .projectNotFound() }
    return project
  }
}
