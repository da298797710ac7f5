import Foundation

// `swift run yorkie-demo [--seed N] [--server URL]`: three clients edit one document at once
// and converge. Exits 0 when they did, 1 when they differ or a step fails or times out, 2 for
// bad arguments.

let log = DemoLog()
switch DemoArguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
  log.plain(DemoArguments.usage)
  exit(0)
case .invalid(let message):
  log.fail("\(message)\n\(DemoArguments.usage)")
  exit(2)
case .run(let arguments):
  startWatchdog(after: 30, log: log)
  do {
    try await Scenario(arguments: arguments, log: log).run()
    exit(0)
  } catch {
    log.fail("\(error)")
    exit(1)
  }
}
