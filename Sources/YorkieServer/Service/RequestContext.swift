/// What the transport learnt about a request before the service sees it.
package struct RequestContext: Sendable {
  /// The project its API key selected.
  package var project: Project
  /// The `authorization` header, handed verbatim to the project's auth webhook.
  package var token: String?

  /// A context for `project`.
  package init(project: Project, token: String? = nil) {
    self.project = project
    self.token = token
  }
}
