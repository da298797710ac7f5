import Foundation
import Testing
import YorkieServer
import YorkieTestSupport

/// The lines `yorkie-server` prints once it listens.
@Suite("Development server: startup message")
struct StartupMessageTests {
  @Test("in memory: the message says a restart forgets every client, what clients then do, and points to --data-dir")
  func inMemory() throws {
    let server = YorkieDevServer()
    #expect(server.startupMessage == nil)
    let url = try server.start().absoluteString
    defer { server.stop() }
    #expect(
      server.startupMessage == """
        yorkie-server listening on \(url) (health: \(url)/yorkie.v1.YorkieService/health)
        yorkie-server keeps its data in memory only: a restart forgets every client and document, and clients then stop (ErrClientNotFound) or reset their stored documents; start it with --data-dir DIR to keep them
        """)
  }

  @Test("with a data directory: the message names it")
  func withDataDirectory() throws {
    let folder = temporaryFolder("startup-message")
    defer { try? FileManager.default.removeItem(at: folder) }
    let server = YorkieDevServer(configuration: .init(dataDirectory: folder))
    let url = try server.start().absoluteString
    #expect(
      server.startupMessage == """
        yorkie-server listening on \(url) (health: \(url)/yorkie.v1.YorkieService/health)
        yorkie-server keeps its data in \(folder.path): clients and documents survive a restart
        """)
    server.stop()
    #expect(server.startupMessage == nil)
  }
}
