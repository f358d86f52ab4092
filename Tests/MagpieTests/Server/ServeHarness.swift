import Foundation
import Magpie
import MagpieServer

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif

/// An ``ImageService`` behind an ``HTTPServer`` on a free loopback port,
/// for tests that speak HTTP to it as a client would.
final class ServeHarness: Sendable {
  let service: ImageService
  let server: HTTPServer

  /// The signing key and salt the tests use (hex, as imgproxy's).
  static let keyHex = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
  static let saltHex = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
  static let signer = try! URLSigner(hexKey: keyHex, hexSalt: saltHex)

  /// Starts one with `configuration`, AVIF registered where this build has it.
  init(_ configuration: ServeConfiguration, threads: Int = 2) throws {
    #if canImport(MagpieAVIF)
      if CoderRegistry.shared.encoder(for: .avif) == nil { CoderRegistry.shared.register(AVIFCoder()) }
    #endif
    let service = try ImageService(configuration: configuration)
    self.service = service
    server = try HTTPServer(threads: threads, immediate: { service.immediateResponse(to: $0) }) {
      await service.respond(to: $0)
    }
  }

  /// A configuration signing with ``signer`` and fetching from loopback
  /// origins (every test origin is on 127.0.0.1).
  static func configuration(allowingPrivate: Bool = true) -> ServeConfiguration {
    var configuration = ServeConfiguration(signer: signer)
    configuration.sources = SourcePolicy(allowsPrivateAddresses: allowingPrivate)
    return configuration
  }

  /// The signed path of `options` over `source`.
  static func path(_ options: TransformOptions, _ source: URL, format: ImageFormat? = nil) -> String {
    signer.signedPath(options: options, source: source, format: format)
  }

  /// `GET` (or `method`) of `path` with `headers`.
  func get(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> HTTPProbe.Answer {
    try await HTTPProbe.send(port: server.port, path: path, method: method, headers: headers)
  }

  /// Stops the server.
  func stop() async { await server.shutdown(grace: .seconds(10)) }

  /// Options resizing to fit `width` × `height`.
  static func fit(_ width: Int, _ height: Int) -> TransformOptions {
    var options = TransformOptions()
    options.width = width
    options.height = height
    return options
  }
}
