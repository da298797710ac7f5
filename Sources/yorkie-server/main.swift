import Foundation
import YorkieServer

// `swift run yorkie-server [--host 127.0.0.1] [--port 8080] [--data-dir DIR] [--log-level info]`:
// a Yorkie-compatible development server until SIGINT or SIGTERM.

/// The usage text.
let usage = """
  usage: yorkie-server [--host HOST] [--port PORT] [--data-dir DIR] [--log-level debug|info|warning|error]
    --host        address to bind (default 127.0.0.1: this machine only)
    --port        port to listen on (default 8080; 0 picks a free one)
    --data-dir    keep documents and clients in DIR across restarts (default: memory only,
                  so a restart forgets every client: clients stop or reset their documents)
    --log-level   how much to log (default info)
  """

/// Stops the process with `message` and the usage.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("yorkie-server: \(message)\n\(usage)\n".utf8))
  exit(2)
}

var configuration = YorkieDevServer.Configuration(port: 8080, logLevel: .info)
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func value() -> String {
    guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
    return value
  }
  switch argument {
  case "--host": configuration.host = value()
  case "--port":
    let text = value()
    guard let port = Int(text), (0...65535).contains(port) else { fail("--port must be a number from 0 to 65535, got \(text)") }
    configuration.port = port
  case "--data-dir": configuration.dataDirectory = URL(fileURLWithPath: value(), isDirectory: true)
  case "--log-level":
    let text = value()
    guard let level = LogLevel.allCases.first(where: { "\($0)" == text }) else { fail("unknown log level \(text)") }
    configuration.logLevel = level
  case "-h", "--help":
    print(usage)
    exit(0)
  default: fail("unknown argument \(argument)")
  }
}

let server = YorkieDevServer(configuration: configuration)
do {
  try server.start()
  // Written unbuffered, so that a supervisor reading a pipe sees it at once.
  FileHandle.standardOutput.write(Data("\(server.startupMessage ?? "")\n".utf8))
} catch {
  FileHandle.standardError.write(Data("yorkie-server: \(error)\n".utf8))
  exit(1)
}

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
var sources: [any DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
  let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
  source.setEventHandler {
    server.stop()
    exit(0)
  }
  source.resume()
  sources.append(source)
}
dispatchMain()
