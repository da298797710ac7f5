// swift-tools-version:6.0
// The package has no dependencies at all: every target builds on Foundation alone.
import PackageDescription

/// Compile-time switches, never on in production builds:
/// - `CRDT_INTERNAL_CHECKS`: every document verifies all its invariants after every mutation
///   (update, rollback, remote changes, snapshot load, garbage collection, setActor) and stops
///   at the first violation; GC also cross-checks its safety table. `.ci/run` runs the CRDT
///   suites with it (and AddressSanitizer); by hand:
///   `swift test --sanitize=address -Xswiftc -DCRDT_INTERNAL_CHECKS --build-path .build/checked --filter CRDTTests`.
let package = Package(
  name: "yorkie-swift",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "CRDT", targets: ["CRDT"]),
    .library(name: "YorkieClient", targets: ["YorkieClient"]),
    .library(name: "YorkieProtocol", targets: ["YorkieProtocol"]),
    .library(name: "YorkieServer", targets: ["YorkieServer"]),
    .library(name: "YorkieObservation", targets: ["YorkieObservation"]),
    .executable(name: "yorkie-server", targets: ["yorkie-server"]),
    .executable(name: "yorkie-demo", targets: ["yorkie-demo"]),
    .executable(name: "yorkie-swiftui-sample", targets: ["yorkie-swiftui-sample"]),
  ],
  targets: [
    .target(name: "CRDT"),
    .target(name: "YorkieProtocol", dependencies: ["CRDT"]),
    // Append-only checksummed logs on local files (server storage, the client's offline store).
    .target(name: "DurableStorage", dependencies: ["CRDT"]),
    .target(name: "YorkieClient", dependencies: ["CRDT", "YorkieProtocol", "DurableStorage"]),
    // SwiftUI-ready state (issue 25): an @Observable main-actor model of a document, with
    // batched refreshes. Its own module keeps CRDT and YorkieClient free of UI concerns.
    .target(name: "YorkieObservation", dependencies: ["CRDT", "YorkieClient"]),
    // The development server (issue 12): YorkieService over Connect + JSON on HTTP/1.1.
    .target(name: "YorkieServer", dependencies: ["CRDT", "YorkieProtocol", "DurableStorage"]),
    .executableTarget(name: "yorkie-server", dependencies: ["YorkieServer"]),
    // `swift run yorkie-demo`: three clients edit one document at once and converge (issue 13).
    .executableTarget(name: "yorkie-demo", dependencies: ["YorkieClient", "YorkieServer"]),
    // `swift run yorkie-swiftui-sample` (issue 25): a to-do board through a DocumentModel,
    // printed headless; a SwiftUI view of it where SwiftUI exists.
    .executableTarget(name: "yorkie-swiftui-sample", dependencies: ["YorkieObservation", "YorkieClient", "YorkieServer"]),
    .executableTarget(name: "crdt-bench", dependencies: ["CRDT", "YorkieProtocol"], path: "Benchmarks/crdt-bench"),
    .executableTarget(name: "server-bench", dependencies: ["YorkieServer", "YorkieProtocol", "CRDT"], path: "Benchmarks/server-bench"),
    // The client against a server (issue 13): sync latency, sync throughput, attaching a large document.
    .executableTarget(
      name: "client-bench", dependencies: ["YorkieClient", "YorkieServer", "YorkieProtocol", "CRDT", "YorkieObservation"], path: "Benchmarks/client-bench"),
    .testTarget(name: "CRDTTests", dependencies: ["CRDT"]),
    .testTarget(name: "YorkieProtocolTests", dependencies: ["YorkieProtocol", "CRDT"], resources: [.copy("Fixtures/wire"), .copy("Fixtures/interop")]),
    // Uses only the public API (no @testable): what an outside package can do with YorkieProtocol.
    // It reads the recorded traffic of YorkieProtocolTests from the source tree.
    .testTarget(name: "YorkieProtocolPublicAPITests", dependencies: ["YorkieProtocol", "CRDT"]),
    // Test support shared by the server's and the client's tests (not a product): the child
    // `yorkie-server` process and the TCP fault-injection proxy.
    .target(name: "YorkieTestSupport", dependencies: ["YorkieServer"], path: "Tests/YorkieTestSupport"),
    .testTarget(name: "YorkieClientTests", dependencies: ["YorkieClient", "YorkieServer", "YorkieProtocol", "YorkieTestSupport"]),
    .testTarget(
      name: "YorkieObservationTests", dependencies: ["YorkieObservation", "YorkieClient", "YorkieServer", "CRDT", "YorkieTestSupport"]),
    .testTarget(name: "DurableStorageTests", dependencies: ["DurableStorage", "CRDT"]),
    .testTarget(name: "YorkieServerTests", dependencies: ["YorkieServer", "YorkieProtocol", "CRDT", "YorkieTestSupport", "DurableStorage"]),
  ],
  swiftLanguageModes: [.v6]
)
