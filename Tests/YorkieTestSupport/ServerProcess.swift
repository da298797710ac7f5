import Foundation
import YorkieServer

/// The `yorkie-server` executable run as a child process (SwiftPM builds it next to the test
/// bundle), for the tests that kill it.
public final class ServerProcess: @unchecked Sendable {
  // Unchecked: `process` and `output` are set in `init` and only read afterwards, except
  // `lines`, which is guarded by `lock`.
  /// The child.
  public let process: Process
  /// Its base URL.
  public let url: URL
  /// What it printed (standard output and error), for failure messages.
  private var lines: [String] = []
  /// Guards `lines`.
  private let lock = NSLock()

  /// The executable, beside the running test bundle.
  public static var executable: URL? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("yorkie-server")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder.deleteLastPathComponent()
    }
    return nil
  }

  /// Starts `yorkie-server --port port --data-dir directory` and waits until it listens.
  public init(port: Int, dataDirectory: URL) throws {
    guard let executable = Self.executable else {
      throw TestSupportError(description: "yorkie-server is not built next to the tests (\(CommandLine.arguments[0]))")
    }
    process = Process()
    process.executableURL = executable
    process.arguments = ["--port", String(port), "--data-dir", dataDirectory.path, "--log-level", "info"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let reader = pipe.fileHandleForReading
    var buffer = Data()
    let deadline = Date().addingTimeInterval(20)
    var found: URL?
    while found == nil, Date() < deadline {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      buffer.append(chunk)
      let text = String(decoding: buffer, as: UTF8.self)
      if let range = text.range(of: "listening on http://127.0.0.1:") {
        let rest = text[range.upperBound...]
        let digits = rest.prefix { $0.isNumber }
        if rest.dropFirst(digits.count).first != nil { found = URL(string: "http://127.0.0.1:\(digits)") }
      }
    }
    lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    guard let found else {
      process.terminate()
      throw TestSupportError(description: "yorkie-server did not start: \(lines.joined(separator: "\n"))")
    }
    url = found
    // Keep draining its output so that it never blocks on a full pipe.
    let output = lock
    Thread { [weak self] in
      while true {
        let chunk = reader.availableData
        if chunk.isEmpty { return }
        output.lock()
        self?.lines += String(decoding: chunk, as: UTF8.self).split(separator: "\n").map(String.init)
        output.unlock()
      }
    }.start()
  }

  /// Everything it printed so far.
  public var output: String { lock.withLock { lines.joined(separator: "\n") } }

  /// Kills it with SIGKILL and waits for it to end.
  public func kill() {
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Ends it with SIGTERM (a clean stop) and waits.
  public func terminate() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// A port that was free a moment ago (a server bound it and let it go), for a child to reuse.
public func freePort() throws -> Int {
  let server = YorkieDevServer()
  let url = try server.start()
  server.stop()
  return url.port!
}

/// A fresh temporary folder, removed by the caller.
public func temporaryFolder(_ name: String) -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("yorkie-\(name)-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A failure of a test-support helper, with what went wrong.
public struct TestSupportError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// An error saying `description`.
  public init(description: String) { self.description = description }
}
