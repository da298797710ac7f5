import CRDT
import Foundation
import Testing

@testable import YorkieServer

/// The seeded generator of the fuzz tests: the server's own SplitMix64, so that a failing seed
/// can be replayed.
typealias SeededGenerator = SplitMix64

/// The fuzz seed: `YORKIE_HTTP_FUZZ_SEED` from the environment, or a fixed default.
func fuzzSeed(_ defaultSeed: UInt64) -> UInt64 {
  if let text = ProcessInfo.processInfo.environment["YORKIE_HTTP_FUZZ_SEED"], let seed = UInt64(text) { return seed }
  return defaultSeed
}

/// Parses `wire` cut at the given ascending positions, collecting requests and the error.
func parseSplit(_ wire: [UInt8], at cuts: [Int], limits: HTTPRequestParser.Limits = .init()) -> HTTPRequestParser.Output {
  var parser = HTTPRequestParser(limits: limits)
  var output = HTTPRequestParser.Output(requests: [], error: nil)
  var start = 0
  for end in cuts + [wire.count] where end >= start {
    let step = parser.parse(wire[start..<end])
    output.requests += step.requests
    output.error = step.error
    start = end
  }
  return output
}

/// A random valid request: its wire bytes and what the parser must make of them.
func randomRequest(_ random: inout SeededGenerator, last: Bool) -> (wire: [UInt8], request: HTTPRequest) {
  let tokenChars = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8)
  let targetChars = Array("abcdefghijklmnopqrstuvwxyz0123456789-._~/%=&:@!$'()*+,;".utf8)
  let valueChars = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\"(),/:;<=>?@[\\]{}!#$%&'*+-.^_`|~".utf8)
  func string(_ chars: [UInt8], _ count: Int) -> String {
    String(decoding: (0..<count).map { _ in chars.randomElement(using: &random)! }, as: UTF8.self)
  }
  func value(_ count: Int) -> String {
    var text = string(valueChars, count)
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return text
  }
  let ows = ["", " ", "\t", "  \t"]

  let method = ["GET", "POST", "PUT", "DELETE", "OPTIONS", string(tokenChars, Int.random(in: 1...8, using: &random))]
    .randomElement(using: &random)!
  var target = "/" + string(targetChars, Int.random(in: 0...20, using: &random))
  if Bool.random(using: &random) { target += "?" + string(targetChars + [UInt8(ascii: "?")], Int.random(in: 0...12, using: &random)) }
  let version: HTTPVersion = Int.random(in: 0..<5, using: &random) == 0 ? .http1_0 : .http1_1
  let close = last && Bool.random(using: &random)

  var fields: [HTTPHeaderField] = []
  if version == .http1_1 || Bool.random(using: &random) { fields.append(.init(name: ["Host", "host", "HOST"].randomElement(using: &random)!, value: "example.com:8080")) }
  for _ in 0..<Int.random(in: 0...5, using: &random) {
    fields.append(.init(name: "X-" + string(tokenChars, Int.random(in: 1...10, using: &random)), value: value(Int.random(in: 0...30, using: &random))))
  }
  if version == .http1_0 && !close { fields.append(.init(name: "Connection", value: "keep-alive")) }
  if version == .http1_1 && close { fields.append(.init(name: "Connection", value: "close")) }
  fields.shuffle(using: &random)

  let body = (0..<[0, 1, 5, 100, 3000].randomElement(using: &random)!).map { _ in UInt8.random(in: 0...255, using: &random) }
  var bodyWire: [UInt8] = []
  var trailers: [HTTPHeaderField] = []
  let chunked = version == .http1_1 && Bool.random(using: &random)
  if chunked {
    fields.insert(.init(name: "Transfer-Encoding", value: "chunked"), at: Int.random(in: 0...fields.count, using: &random))
    var offset = 0
    while offset < body.count {
      let size = min(body.count - offset, Int.random(in: 1...700, using: &random))
      var line = String(size, radix: 16, uppercase: Bool.random(using: &random))
      if Bool.random(using: &random) { line = "000" + line }
      if Bool.random(using: &random) { line += ows.randomElement(using: &random)! + ";ext=" + string(tokenChars, 3) }
      bodyWire += Array((line + "\r\n").utf8) + body[offset..<(offset + size)] + [13, 10]
      offset += size
    }
    bodyWire += Array("0\r\n".utf8)
    for _ in 0..<Int.random(in: 0...2, using: &random) {
      let field = HTTPHeaderField(name: "T-" + string(tokenChars, 4), value: value(8))
      trailers.append(field)
      bodyWire += Array("\(field.name):\(ows.randomElement(using: &random)!)\(field.value)\r\n".utf8)
    }
    bodyWire += [13, 10]
  } else if !body.isEmpty || Bool.random(using: &random) {
    fields.insert(.init(name: "Content-Length", value: String(body.count)), at: Int.random(in: 0...fields.count, using: &random))
    bodyWire = body
  }

  var head = String(repeating: "\r\n", count: Int.random(in: 0..<8, using: &random) == 0 ? 1 : 0)
  head += "\(method) \(target) \(version)\r\n"
  for field in fields {
    head += "\(field.name):\(ows.randomElement(using: &random)!)\(field.value)\(ows.randomElement(using: &random)!)\r\n"
  }
  head += "\r\n"
  let request = HTTPRequest(
    method: method, target: target, version: version, headers: HTTPHeaders(fields), body: body,
    trailers: HTTPHeaders(trailers), keepAlive: !close)
  return (Array(head.utf8) + bodyWire, request)
}

@Suite("HTTP request parser: splits and fuzzing")
struct HTTPRequestParserSplitTests {
  static let pair = Array(
    ("POST /yorkie.v1.YorkieService/PushPullChanges?a=1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
      + "Transfer-Encoding: chunked\r\n\r\n4;x=y\r\n{\"a\"\r\nB\r\n:[1,2,3]}\r\n\r\n0\r\nX-T: 1\r\n\r\n"
      + "POST /yorkie.v1.YorkieService/Watch HTTP/1.1\r\nHost: localhost\r\nContent-Length: 7\r\n\r\n{\"b\":2}").utf8)

  static func checkPair(_ output: HTTPRequestParser.Output) {
    #expect(output.error == nil)
    #expect(output.requests.map(\.path) == ["/yorkie.v1.YorkieService/PushPullChanges", "/yorkie.v1.YorkieService/Watch"])
    #expect(output.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["{\"a\":[1,2,3]}\r\n", "{\"b\":2}"])
    #expect(output.requests.first?.trailers["x-t"] == "1")
  }

  @Test("A pipelined pair (chunked, then Content-Length) parses the same when cut at any byte")
  func everySingleCut() {
    Self.checkPair(parseSplit(Self.pair, at: []))
    for cut in 0...Self.pair.count { Self.checkPair(parseSplit(Self.pair, at: [cut])) }
    Self.checkPair(parseBytewise(Self.pair))
  }

  @Test("The pair parses the same when cut at any two bytes up to 48 apart (every piece size in every place)")
  func everyDoubleCut() {
    var failures = 0
    for first in 0...Self.pair.count {
      for second in first...min(first + 48, Self.pair.count) {
        let output = parseSplit(Self.pair, at: [first, second])
        if output.error != nil || output.requests.count != 2 || output.requests[0].body.count != 15 || output.requests[1].body.count != 7 {
          failures += 1
        }
      }
    }
    #expect(failures == 0)
  }

  @Test("Random valid pipelines, cut at random, parse to exactly the requests they were made from")
  func randomPipelines() {
    let seed = fuzzSeed(0x5EED_0001)
    print("HTTP parser pipeline fuzz seed: \(seed) (set YORKIE_HTTP_FUZZ_SEED to replay)")
    var random = SeededGenerator(seed: seed)
    for round in 0..<400 {
      let count = Int.random(in: 1...6, using: &random)
      var wire: [UInt8] = []
      var expected: [HTTPRequest] = []
      for index in 0..<count {
        let (bytes, request) = randomRequest(&random, last: index == count - 1)
        wire += bytes
        expected.append(request)
      }
      let cutCount = Int.random(in: 0...min(40, wire.count), using: &random)
      let cuts = (0..<cutCount).map { _ in Int.random(in: 0...wire.count, using: &random) }.sorted()
      let output = parseSplit(wire, at: cuts)
      #expect(output.error == nil, "round \(round)")
      #expect(output.requests == expected, "round \(round)")
      if output.requests != expected { break }
    }
  }

  @Test("Random garbage and mutated requests never crash, and the result never depends on the cuts")
  func garbage() {
    let seed = fuzzSeed(0x5EED_0002)
    print("HTTP parser garbage fuzz seed: \(seed) (set YORKIE_HTTP_FUZZ_SEED to replay)")
    var random = SeededGenerator(seed: seed)
    let alphabet = Array("GETPOST /HTP1.0:\r\n;chunkedContent-LengthTransfer-Encoding0123456789abcdefxX \t".utf8)
    let limits = HTTPRequestParser.Limits(maxHeaderBytes: 512, maxHeaderCount: 8, maxBodyBytes: 2048, maxChunkLineBytes: 32)
    var outcomes: [String: Int] = [:]
    for round in 0..<1500 {
      var wire: [UInt8]
      switch round % 3 {
      case 0:
        wire = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      case 1:
        wire = (0..<Int.random(in: 0...300, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
      default:
        wire = randomRequest(&random, last: false).wire + randomRequest(&random, last: true).wire
        for _ in 0..<Int.random(in: 1...4, using: &random) where !wire.isEmpty {
          let position = Int.random(in: 0..<wire.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: wire[position] = alphabet.randomElement(using: &random)!
          case 1: wire.remove(at: position)
          default: wire.insert(UInt8.random(in: 0...255, using: &random), at: position)
          }
        }
      }
      let whole = parseSplit(wire, at: [], limits: limits)
      let cuts = (0..<Int.random(in: 1...10, using: &random)).map { _ in Int.random(in: 0...wire.count, using: &random) }.sorted()
      let split = parseSplit(wire, at: cuts, limits: limits)
      #expect(whole == split, "round \(round)")
      if round % 10 == 0 { #expect(whole == parseBytewise(wire, limits: limits), "round \(round)") }
      outcomes[whole.error.map { "\($0)" } ?? "ok", default: 0] += 1
    }
    print("HTTP parser garbage outcomes: \(outcomes.sorted { $0.key < $1.key })")
  }
}
