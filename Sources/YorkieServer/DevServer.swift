import Foundation

/// A started development server, in the shape of the SDK's planned API:
///
/// ```swift
/// let server = try await DevServer.start(port: 0)    // in-process; port 0 picks a free port
/// let client = Client(server.url)
/// await server.stop()
/// ```
///
/// It runs a ``YorkieDevServer`` (use that type directly for the full life cycle: create,
/// `start()`, `stop()`, and a URL that is nil while stopped).
public final class DevServer: Sendable {
  /// The server's base URL, such as `http://127.0.0.1:49152`.
  public let url: URL
  /// The server behind it.
  public let server: YorkieDevServer

  private init(url: URL, server: YorkieDevServer) {
    self.url = url
    self.server = server
  }

  /// Starts a server on 127.0.0.1.
  ///
  /// - Parameters:
  ///   - port: The port; 0 (the default) picks a free one.
  ///   - dataDirectory: Where to keep the data across restarts; nil keeps it in memory.
  ///   - configuration: Every other setting (its `port` and `dataDirectory` are replaced by
  ///     the parameters above).
  /// - Throws: ``YorkieDevServerError`` when the port cannot be bound or the data directory
  ///   cannot be used.
  public static func start(
    port: Int = 0, dataDirectory: URL? = nil, configuration: YorkieDevServer.Configuration = .init()
  ) async throws -> DevServer {
    var configuration = configuration
    configuration.port = port
    configuration.dataDirectory = dataDirectory
    let server = YorkieDevServer(configuration: configuration)
    let url = try server.start()
    return DevServer(url: url, server: server)
  }

  /// Stops the server: open streams end (clients see `canceled`), and the port is released.
  public func stop() async {
    server.stop()
  }
}
