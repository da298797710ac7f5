import Foundation

// The edits of attach_large: the automerge-paper keystroke trace (Martin Kleppmann and Alastair
// Beresford, CC BY 4.0; see Benchmarks/traces/README.md), or, when it cannot be read,
// 260,000 single-character inserts.

/// One edit: replace `deleteCount` characters at `position` with `insert`.
struct TextEdit: Sendable {
  var position: Int
  var deleteCount: Int
  var insert: String
}

/// The edits that build the large document, and the text they end with.
struct Workload: Sendable {
  /// Where the edits come from, for the report.
  var name: String
  var edits: [TextEdit]
  var endContent: String

  /// `count` single-character inserts, each at the end (typing), cycling through a–z.
  static func typing(_ count: Int) -> Workload {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var edits: [TextEdit] = []
    edits.reserveCapacity(count)
    var text = ""
    text.reserveCapacity(count)
    for index in 0..<count {
      let letter = String(letters[index % letters.count])
      edits.append(TextEdit(position: index, deleteCount: 0, insert: letter))
      text += letter
    }
    return Workload(name: "\(grouped(count)) single-character inserts", edits: edits, endContent: text)
  }

  /// automerge-paper, or nil (with the reason) when it cannot be read or is not what it
  /// should be (ASCII only, so that its code-point positions are Yorkie's UTF-16 offsets).
  static func automergePaper() -> (Workload?, String?) {
    let name = "automerge-paper"
    guard let file = traceFile(name) else { return (nil, "\(name).json.gz not found (set CRDT_TRACE_DIR)") }
    let data: Data
    do {
      data = try gunzip(file)
    } catch {
      return (nil, "cannot gunzip \(file.path): \(error)")
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let endContent = object["endContent"] as? String, let txns = object["txns"] as? [[String: Any]]
    else { return (nil, "\(file.lastPathComponent) is not a sequential trace") }
    guard (object["startContent"] as? String ?? "").isEmpty else { return (nil, "\(name) does not start empty") }
    guard endContent.utf8.allSatisfy({ $0 < 0x80 }) else { return (nil, "\(name) is not ASCII") }
    var edits: [TextEdit] = []
    edits.reserveCapacity(txns.count)
    for txn in txns {
      guard let patches = txn["patches"] as? [[Any]] else { return (nil, "\(name): a transaction without patches") }
      for patch in patches {
        guard patch.count == 3, let position = (patch[0] as? NSNumber)?.intValue,
          let deleteCount = (patch[1] as? NSNumber)?.intValue, let insert = patch[2] as? String,
          insert.utf8.allSatisfy({ $0 < 0x80 })
        else { return (nil, "\(name): a patch that is not [position, deleteCount, ASCII text]") }
        edits.append(TextEdit(position: position, deleteCount: deleteCount, insert: insert))
      }
    }
    return (Workload(name: "\(name) trace (\(grouped(edits.count)) edits)", edits: edits, endContent: endContent), nil)
  }

  /// The trace file: in `$CRDT_TRACE_DIR`, else in Benchmarks/traces of this package (found
  /// from this source file's path, then from the current directory).
  private static func traceFile(_ name: String) -> URL? {
    var folders: [URL] = []
    if let override = ProcessInfo.processInfo.environment["CRDT_TRACE_DIR"], !override.isEmpty {
      folders.append(URL(fileURLWithPath: override, isDirectory: true))
    }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    folders.append(packageRoot.appendingPathComponent("Benchmarks/traces", isDirectory: true))
    folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Benchmarks/traces"))
    return folders.map { $0.appendingPathComponent(name + ".json.gz") }
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// The file's contents through the system's `gzip -dc` (crdt-bench has a decoder of its
  /// own; this executable only needs the trace once, untimed).
  private static func gunzip(_ file: URL) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc", file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure("gzip -dc exited with \(process.terminationStatus)") }
    return data
  }
}
