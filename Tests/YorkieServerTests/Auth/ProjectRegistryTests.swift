import Testing

@testable import YorkieServer

/// `ProjectRegistry`: which project an `x-api-key` selects.
@Suite("Project registry")
struct ProjectRegistryTests {
  /// Two projects besides the default one.
  private let first = Project(name: "first", publicKey: "key-1")
  /// The second project.
  private let second = Project(name: "second", publicKey: "key-2", removeOnDetach: true)

  @Test("No key, or an empty one, selects the default project")
  func noKeyUsesDefault() throws {
    let registry = ProjectRegistry(defaultProject: .default, projects: [first, second])
    #expect(try registry.project(forAPIKey: nil) == .default)
    #expect(try registry.project(forAPIKey: "") == .default)
  }

  @Test("A known key selects its project")
  func knownKey() throws {
    let registry = ProjectRegistry(defaultProject: .default, projects: [first, second])
    #expect(try registry.project(forAPIKey: "key-1") == first)
    #expect(try registry.project(forAPIKey: "key-2") == second)
  }

  @Test("No key without a default project: unauthenticated, no details")
  func noKeyNoDefault() {
    let registry = ProjectRegistry(defaultProject: nil, projects: [first])
    for key in [nil, ""] as [String?] {
      #expect(throws: ServiceError.apiKeyNotProvided) { try registry.project(forAPIKey: key) }
    }
    let error = ServiceError.apiKeyNotProvided
    #expect(error.code == .unauthenticated)
    #expect(error.message == "api key is not provided")
    #expect(error.metadataCode == nil)
    #expect(error.connectError.details.isEmpty)
  }

  @Test("An unknown key is not_found/ErrProjectNotFound, with or without a default project")
  func unknownKey() {
    for defaultProject in [Project.default, nil] as [Project?] {
      let registry = ProjectRegistry(defaultProject: defaultProject, projects: [first])
      #expect(throws: ServiceError.projectNotFound()) { try registry.project(forAPIKey: "key-3") }
      #expect(throws: ServiceError.projectNotFound()) { try registry.project(forAPIKey: "KEY-1") }
    }
    #expect(ServiceError.projectNotFound().code == .notFound)
    #expect(ServiceError.projectNotFound().metadataCode == "ErrProjectNotFound")
  }

  @Test("A default project with a public key is found by that key too")
  func defaultProjectByKey() throws {
    let keyed = Project(name: "main", publicKey: "main-key")
    let registry = ProjectRegistry(defaultProject: keyed, projects: [first])
    #expect(try registry.project(forAPIKey: "main-key") == keyed)
    #expect(try registry.project(forAPIKey: nil) == keyed)
  }

  @Test("Two projects with one key: the first given wins; keyless projects are not selectable")
  func duplicatesAndKeyless() throws {
    let shadow = Project(name: "shadow", publicKey: "key-1")
    let keyless = Project(name: "keyless", publicKey: "")
    let registry = ProjectRegistry(defaultProject: nil, projects: [first, shadow, keyless])
    #expect(try registry.project(forAPIKey: "key-1") == first)
    #expect(throws: ServiceError.apiKeyNotProvided) { try registry.project(forAPIKey: "") }
  }
}
