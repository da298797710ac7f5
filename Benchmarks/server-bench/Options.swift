import Foundation

/// The command line: server-load.py's options and defaults, plus where the server comes from.
struct Options: Sendable {
  /// The server to measure; `nil` starts one in this process.
  var url: URL?
  /// The in-process server's data directory; `nil` keeps it in memory.
  var dataDirectory: URL?
  /// Throughput clients (threads).
  var clients = 4
  /// Documents the throughput clients share (client `i` attaches document `i % docs`).
  var docs = 2
  /// How long the throughput phase runs.
  var seconds = 5.0
  /// Watchers of the fan-out phase; 0 skips it.
  var watchers = 20
  /// Changes the fan-out writer pushes.
  var events = 50
  /// Whether to print a table for people after the JSON line.
  var table = false

  /// The usage text.
  static let usage = """
    usage: server-bench [--url URL | --data-dir DIR] [--clients N] [--docs N] [--seconds S]
                        [--watchers N] [--events N] [--table]
      --url URL       measure the server at URL (default: a YorkieDevServer in this process)
      --data-dir DIR  the in-process server keeps its data in DIR (default: memory only)
      --clients N     throughput clients, one thread and connection each (default 4)
      --docs N        documents they share (default 2)
      --seconds S     how long they push-pull (default 5)
      --watchers N    fan-out watchers, all read by one thread (default 20; 0 skips fan-out)
      --events N      changes pushed 20 ms apart to the watchers (default 50)
      --table         also print the figures as a table
    """

  /// Reads `arguments` (without the program name).
  ///
  /// - Throws: ``BenchError`` for an unknown option, a missing or bad value.
  init(arguments: [String]) throws(BenchError) {
    var rest = arguments[...]
    while let option = rest.popFirst() {
      func value() throws(BenchError) -> String {
        guard let value = rest.popFirst() else { throw BenchError("\(option) needs a value") }
        return value
      }
      func count(atLeast minimum: Int) throws(BenchError) -> Int {
        let text = try value()
        guard let n = Int(text), n >= minimum else { throw BenchError("\(option) must be a whole number ≥ \(minimum), got \(text)") }
        return n
      }
      switch option {
      case "--url":
        let text = try value()
        guard let url = URL(string: text) else { throw BenchError("--url: not a URL: \(text)") }
        self.url = url
      case "--data-dir": dataDirectory = URL(fileURLWithPath: try value(), isDirectory: true)
      case "--clients": clients = try count(atLeast: 1)
      case "--docs": docs = try count(atLeast: 1)
      case "--seconds":
        let text = try value()
        guard let s = Double(text), s > 0 else { throw BenchError("--seconds must be a positive number, got \(text)") }
        seconds = s
      case "--watchers": watchers = try count(atLeast: 0)
      case "--events": events = try count(atLeast: 1)
      case "--table": table = true
      default: throw BenchError("unknown option \(option)")
      }
    }
    if url != nil && dataDirectory != nil {
      throw BenchError("--data-dir applies to the in-process server only; it cannot go with --url")
    }
  }
}
