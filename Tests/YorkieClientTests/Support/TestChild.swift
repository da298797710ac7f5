import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// This test binary started again as a child process, running one test that is enabled only in
/// the child (by an environment variable), with its standard output and error in a file: how the
/// storage tests kill and restart "the app" for real.
///
/// Linux only (on Apple platforms the test bundle is not an executable to start again).
final class TestChild: @unchecked Sendable {
  /// The running process.
  let process = Process()
  /// Where its output goes.
  let outputFile: URL
  private let output: FileHandle

  /// Starts the test `filter` (`Suite/test`) with `environment` added to this process's.
  init(filter: String, environment: [String: String], outputIn folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    outputFile = folder.appendingPathComponent("child-\(UUID().uuidString).txt")
    guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputFile.path])
    }
    output = try FileHandle(forWritingTo: outputFile)
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = output
    process.standardError = output
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? output.close()
    try? FileManager.default.removeItem(at: outputFile)
  }

  /// What the child printed so far.
  var text: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

  /// The lines the child printed that start with `prefix`, without it.
  func lines(after prefix: String) -> [String] {
    text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
  }

  /// Waits (polling every 2 ms) until the child printed a line starting with `prefix`, or it
  /// ended, or `timeout` seconds passed; returns whether the line came.
  func waitForLine(_ prefix: String, timeout: TimeInterval = 60) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if !lines(after: prefix).isEmpty { return true }
      if !process.isRunning { return !lines(after: prefix).isEmpty }
      try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return false
  }

  /// Kills the child with SIGKILL (no chance to clean up: a crash) and waits for its end.
  func killHard() async {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    await exit()
  }

  /// Waits for the child to end; returns its termination status.
  @discardableResult
  func exit(timeout: TimeInterval = 120) async -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { try? await Task.sleep(nanoseconds: 2_000_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    while process.isRunning { try? await Task.sleep(nanoseconds: 2_000_000) }
    return process.terminationStatus
  }
}

/// Writes `line` and a newline to standard output at once (no buffering: a child killed right
/// after still has it in its output file).
func printUnbuffered(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  var written = 0
  while written < bytes.count {
    let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    written += count
  }
}
