import CRDT
import Foundation
import Testing
import YorkieServer

@testable import YorkieClient

#if os(Linux)
  /// End to end across real process restarts: two apps (child processes, see ``TestChild``)
  /// attach a document with directory stores, the server goes down, both edit offline and are
  /// killed with SIGKILL, the server comes back, both apps start again: they converge with the
  /// server, and the server holds each of their changes exactly once.
  @Suite("Offline: two apps edit while the server is down, are killed, restart and converge", .timeLimit(.minutes(3)))
  struct OfflineRestartTests {
    static let childVariable = "YORKIE_OFFLINE_CHILD"
    static let isChild = ProcessInfo.processInfo.environment[childVariable] != nil
    static let key = "offline-e2e"
    /// Offline edits per app.
    static let edits = 25

    @Test("both apps converge with the server after offline edits and a kill; every change counts once")
    func twoAppsOfflineRestart() async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      var configuration = YorkieDevServer.Configuration(dataDirectory: folder.appendingPathComponent("server"))
      let server = YorkieDevServer(configuration: configuration)
      let url = try server.start()
      configuration.port = url.port ?? 0

      // The shape both apps edit.
      let setup = try await activatedClient(url, key: "setup")
      let shape = Document(key: Self.key)
      try await setup.attach(shape)
      try await shape.update { root, _ in
        _ = root.setNewCounter("n", .int(0))
        _ = root.setNewText("log")
      }
      try await setup.waitUntilAcknowledged(shape)
      try await setup.deactivate()

      let apps = ["A", "B"]
      func run(_ app: String, _ phase: String) throws -> TestChild {
        try TestChild(
          filter: "OfflineRestartTests/app",
          environment: [
            Self.childVariable: "1", "YORKIE_OFFLINE_PHASE": phase, "YORKIE_OFFLINE_APP": app, "YORKIE_OFFLINE_URL": url.absoluteString,
            "YORKIE_OFFLINE_DIR": folder.appendingPathComponent("app-\(app)").path,
          ], outputIn: folder)
      }
      // 1. Both attach while the server is up, then quit.
      for app in apps {
        let child = try run(app, "attach")
        #expect(await child.exit() == 0, "attach \(app):\n\(child.text)")
      }
      // 2. The server goes down; both edit offline and are killed.
      server.stop()
      let editors = try apps.map { try run($0, "offline") }
      for (app, child) in zip(apps, editors) {
        #expect(await child.waitForLine("edited"), "offline \(app):\n\(child.text)")
        await child.killHard()
      }
      // 3. The server comes back; both start again and sync.
      let restarted = YorkieDevServer(configuration: configuration)
      _ = try restarted.start()
      defer { restarted.stop() }
      let syncers = try apps.map { try run($0, "sync") }
      var contents: [String] = []
      for (app, child) in zip(apps, syncers) {
        #expect(await child.exit() == 0, "sync \(app):\n\(child.text)")
        contents.append(child.lines(after: "content ").last ?? "none")
      }
      let expected = try #require(try await serverJSON(restarted, Self.key))
      #expect(contents == [expected, expected])
      // Each change once: the counter counts every edit once, and each app's entries appear
      // once each, in its order.
      let replica = Document(key: Self.key)
      let check = try await activatedClient(url, key: "check")
      try await check.attach(replica, syncMode: .manual)
      #expect(try await replica.valueSync("n") == Int64(2 * Self.edits))
      let log = try await replica.textSync("log")
      for app in apps {
        let mine = log.split(separator: ";").filter { $0.hasPrefix("\(app)-") }.map(String.init)
        #expect(mine == (1...Self.edits).map { "\(app)-\($0)" }, "\(app): \(log)")
      }
      print("OfflineRestartTests: n = \(try await replica.valueSync("n")), log \(log.count) characters, both apps = server")
      try await check.deactivate()
    }

    /// One app's phase, in a child process.
    @Test("(run in the child process only) one app's phase", .enabled(if: isChild))
    func app() async throws {
      let environment = ProcessInfo.processInfo.environment
      let app = try #require(environment["YORKIE_OFFLINE_APP"])
      let address = try #require(environment["YORKIE_OFFLINE_URL"])
      let url = try #require(URL(string: address))
      let folder = URL(fileURLWithPath: try #require(environment["YORKIE_OFFLINE_DIR"]))
      var options = ClientOptions(key: "app-\(app)", storage: .directory(folder))
      options.reconnect = ReconnectPolicy(base: 0.05, cap: 0.2)
      let client = Client(url, options: options)
      try await client.activate()
      let document = Document(key: Self.key)
      try await client.attach(document)
      switch environment["YORKIE_OFFLINE_PHASE"] {
      case "attach":
        try await client.sync(document)
        await client.close()
      case "offline":
        for index in 1...Self.edits {
          try await document.update { root, _ in
            _ = root.counter("n")?.increase(by: 1)
            let log = try #require(root.text("log"))
            try log.edit(log.length, log.length, "\(app)-\(index);")
          }
        }
        printUnbuffered("edited")
        // Killed here, as an app is.
        try await Task.sleep(nanoseconds: 60_000_000_000)
      default:
        try await client.sync(document)
        try await client.waitUntilAcknowledged(document)
        // The other app may sync later: wait for its edits too.
        let deadline = Date().addingTimeInterval(60)
        while try await document.valueSync("n") < Int64(2 * Self.edits), Date() < deadline {
          try await Task.sleep(nanoseconds: 50_000_000)
          try await client.sync(document)
        }
        printUnbuffered("content \(await document.toSortedJSON())")
        await client.close()
      }
    }
  }
#endif
