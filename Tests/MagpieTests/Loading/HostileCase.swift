import Foundation
import Magpie

/// One entry of the hostile-origin catalogue: what the origin does, the
/// limits the loader runs under, and the typed error each loader must end
/// with.
enum HostileCase: String, CaseIterable, Sendable, CustomStringConvertible {
  case gzipBomb
  case deflateBomb
  case endlessChunkedBody
  case endlessBody
  case stallAfterHead
  case bodyShorterThanContentLength
  case hugeHead
  case redirectToFile
  case redirectToData
  case redirectLoop
  case slowloris

  /// The body cap of every case: small, so a size case ends quickly.
  static let maximumBodySize: Int64 = 1 << 20

  var description: String { rawValue }

  /// Routes the case on `origin`; returns the path to load.
  func install(on origin: FaultOrigin) -> String {
    let path = "/\(rawValue).png"
    switch self {
    case .gzipBomb: origin.route(path, .bomb(encoding: "gzip"))
    case .deflateBomb: origin.route(path, .bomb(encoding: "deflate"))
    case .endlessChunkedBody: origin.route(path, .endlessChunked(prefix: pngLikeBytes(100)))
    case .endlessBody: origin.route(path, .endless(prefix: pngLikeBytes(100)))
    case .stallAfterHead: origin.route(path, .stallMidBody(pngLikeBytes(10_000), sent: 0))
    case .bodyShorterThanContentLength: origin.route(path, .shortBody(pngLikeBytes(10_000), declared: 20_000))
    case .hugeHead: origin.route(path, .hugeHead(fieldBytes: 100_000, body: pngLikeBytes(100)))
    case .redirectToFile: origin.route(path, .redirect(status: 302, location: "file:///etc/passwd"))
    case .redirectToData: origin.route(path, .redirect(status: 302, location: "data:image/png;base64,iVBORw0KGgo="))
    case .redirectLoop:
      origin.route(path, .redirect(status: 302, location: "/\(rawValue)-2.png"))
      origin.route("/\(rawValue)-2.png", .redirect(status: 302, location: path))
    case .slowloris: origin.route(path, .slowloris(pngLikeBytes(1000), interval: .seconds(1)))
    }
    return path
  }

  /// The limits: generous except where the case is about one of them.
  var configuration: DataLoaderConfiguration {
    var configuration = quickConfiguration()
    configuration.maximumBodySize = Self.maximumBodySize
    switch self {
    case .stallAfterHead: configuration.timeout = .milliseconds(600)
    case .slowloris:
      // One byte a second never trips the 5 s idle limit; the total does.
      configuration.timeout = .seconds(5)
      configuration.resourceTimeout = .milliseconds(1500)
    default: break
    }
    return configuration
  }

  /// The error `kind` must end with: its code and a part of its reason
  /// that names the limit or the fault.
  func expected(for kind: LoaderKind) -> (code: MagpieError.Code, reason: String) {
    switch self {
    case .gzipBomb, .deflateBomb:
      // Neither loader asks for compression; both refuse it at the head.
      return (.invalidResponse, "Content-Encoding \(self == .gzipBomb ? "gzip" : "deflate")")
    case .endlessChunkedBody, .endlessBody: return (.invalidResponse, "maximumBodySize")
    case .stallAfterHead: return (.timedOut, "timeout")
    case .bodyShorterThanContentLength: return (.invalidResponse, "Content-Length")
    case .hugeHead: return (.invalidResponse, "maximumHeaderSize")
    case .redirectToFile, .redirectToData: return (.invalidResponse, "not an http(s) URL")
    case .redirectLoop: return (.invalidResponse, "maximumRedirects")
    case .slowloris: return (.timedOut, "resourceTimeout")
    }
  }

  /// Whether the body is a decompression bomb.
  var isBomb: Bool { self == .gzipBomb || self == .deflateBomb }

  /// Whether the origin sends without end, so the loader must hang up.
  var isEndless: Bool { [.gzipBomb, .deflateBomb, .endlessChunkedBody, .endlessBody].contains(self) }
}
