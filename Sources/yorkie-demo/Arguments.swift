import Foundation

/// What `yorkie-demo` was asked to do.
struct DemoArguments: Sendable {
  /// The seed of the scripted choices and pauses.
  var seed: UInt64
  /// A server to use instead of starting one in-process.
  var server: URL?

  /// The usage text.
  static let usage = """
    usage: yorkie-demo [--seed N] [--server URL]
      Three clients (ann, bob, cho) edit one document at the same time: a to-do list, a
      styled text, a counter and an outline (a Yorkie Tree), with presences; one broadcasts
      on a channel. The demo checks that all three end with the same document.
      --seed N       replay the choices and pauses of a run (default: a random seed, printed)
      --server URL   use a running Yorkie server (such as `swift run yorkie-server`) instead
                     of starting one in-process on a free port
      -h, --help     print this help
    """

  /// What the command line asks for.
  enum Parsed {
    /// Run the demo.
    case run(DemoArguments)
    /// Print the usage.
    case help
    /// The arguments are wrong: the message says how.
    case invalid(String)
  }

  /// Reads `arguments` (without the program name).
  static func parse(_ arguments: [String]) -> Parsed {
    var result = DemoArguments(seed: UInt64.random(in: 1...99_999), server: nil)
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "-h", "--help":
        return .help
      case "--seed":
        guard let text = rest.popFirst() else { return .invalid("--seed needs a number") }
        guard let seed = UInt64(text) else { return .invalid("--seed must be a non-negative integer, got \"\(text)\"") }
        result.seed = seed
      case "--server":
        guard let text = rest.popFirst() else { return .invalid("--server needs a URL") }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
          return .invalid("--server must be an http:// or https:// URL, got \"\(text)\"")
        }
        result.server = url
      default:
        return .invalid("unknown argument \"\(argument)\"")
      }
    }
    return .run(result)
  }
}
