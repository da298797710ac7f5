import Foundation
import Testing
import YorkieProtocol
import YorkieServer

@testable import YorkieClient

#if os(Linux)
  /// An idle client process must not burn CPU: FoundationNetworking keeps a write dispatch
  /// source on a connection's socket until the connection's first request ends, and a Watch
  /// stream that opened a connection of its own kept a core spinning for as long as it ran
  /// (see ``ConnectTransport``).
  ///
  /// Swift Testing runs the other tests of this process in parallel, so the CPU time of this
  /// process says nothing. The test runs its scenario in a child process instead (this test
  /// binary again, filtered to ``scenarioInChildProcess()``), which measures its own CPU time
  /// over a quiet moment with every stream open and prints it.
  ///
  /// Linux only: the bug is FoundationNetworking's, and on Apple platforms the test bundle is
  /// not an executable to start again.
  @Suite("Idle CPU: open streams cost nothing while nothing happens", .timeLimit(.minutes(1)))
  struct IdleCPUTests {
    /// Set in the child's environment.
    static let childVariable = "YORKIE_IDLE_CPU_CHILD"
    /// Whether this process is the child.
    static let isChild = ProcessInfo.processInfo.environment[childVariable] != nil
    /// What the child prints before the CPU time it measured (in seconds).
    static let marker = "IDLE-CPU-SECONDS:"
    /// How long the child stays quiet while it measures.
    static let quietSeconds = 1.5
    /// The most CPU time the quiet moment may take. A healthy process takes about a
    /// millisecond; a spinning one took 0.9 to 2.9 s of every 2 to 3 s.
    static let limit = 0.25

    @Test("a child process with Watch streams open (one on a transport without connections) stays idle", .enabled(if: !isChild))
    func idleProcessStaysIdle() async throws {
      let output = try await Self.runChild()
      guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(Self.marker) }),
        let seconds = Double(line.dropFirst(Self.marker.count).trimmingCharacters(in: .whitespaces))
      else {
        Issue.record("the child printed no measurement:\n\(output)")
        return
      }
      #expect(
        seconds < Self.limit,
        "the idle child used \(seconds) s of CPU in \(Self.quietSeconds) s with its streams open")
    }

    /// The scenario, run only in the child that ``idleProcessStaysIdle()`` starts: a Watch
    /// stream opened by a transport that has no connection yet (the request that used to
    /// open one, every time), and three clients with a document and a channel each that edit
    /// at once (the shape that first showed the spin, in 2 runs of 8); then a quiet moment.
    @Test("(run in the child process only) streams open, then a quiet moment", .enabled(if: isChild))
    func scenarioInChildProcess() async throws {
      try await withServer { url, _ in
        let replica = try await TransportReplica(url: url, key: "idle-doc", clientKey: "replica")
        try await replica.attach()
        let fresh = ConnectTransport(baseURL: url)
        defer { fresh.invalidate() }
        let request = WatchRequest(
          clientID: replica.clientID, resources: [.document(WireDocumentResource(documentID: replica.documentID))])
        var watch = fresh.stream("Watch", request, shardKey: "idle-doc", as: WatchResponse.self).makeAsyncIterator()
        guard case .initialization? = try await watch.next() else {
          Issue.record("the first message is not the initialization")
          return
        }

        var clients: [Client] = []
        for index in 0..<3 {
          let client = try await activatedClient(url, key: "c\(index)")
          let document = Document(key: "idle-doc")
          try await client.attach(document)
          try await client.attach(Channel(key: "idle-room"))
          for step in 0..<20 {
            try await document.update { root, _ in root["k\(index)"] = .integer(Int32(step)) }
          }
          clients.append(client)
        }
        // Let the last syncs and presence events settle.
        try await Task.sleep(nanoseconds: 500_000_000)
        let before = Self.processCPUSeconds()
        try await Task.sleep(nanoseconds: UInt64(Self.quietSeconds * 1_000_000_000))
        print("\(Self.marker) \(Self.processCPUSeconds() - before)")
        for client in clients { try await client.deactivate() }
      }
    }

    /// The user and system CPU time of this process so far, in seconds.
    static func processCPUSeconds() -> Double {
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
      return user + system
    }

    /// Runs this test binary again for ``scenarioInChildProcess()`` alone and returns what it
    /// printed (standard output and error); records an issue when it fails.
    static func runChild() async throws -> String {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yorkie-idle-cpu-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let outputFile = folder.appendingPathComponent("output.txt")
      guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputFile.path])
      }
      let output = try FileHandle(forWritingTo: outputFile)
      defer { try? output.close() }

      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["--testing-library", "swift-testing", "--filter", "IdleCPUTests/scenarioInChildProcess"]
      var environment = ProcessInfo.processInfo.environment
      environment[childVariable] = "1"
      process.environment = environment
      process.standardOutput = output
      process.standardError = output
      let status: Int32 = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
          process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
          do {
            try process.run()
          } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
          }
        }
      } onCancel: {
        if process.isRunning { process.terminate() }
      }
      let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      if status != 0 { Issue.record("the child process failed (status \(status)):\n\(text)") }
      return text
    }
  }
#endif
