import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a transfer had received when it failed part-way: the response
/// head and the body so far. Loaders that collect whole bodies attach it
/// to their failure's ``MagpieError/underlying`` (keeping the error they
/// had), and the downloader keeps it as ``ResumableData`` when the
/// response allows a resume.
struct PartialBody: Error, Sendable, CustomStringConvertible {
  /// The response whose body was cut.
  let response: HTTPURLResponse
  /// The bytes that arrived.
  let body: Data
  /// The error the loader had before this was attached, if any.
  let underlying: (any Error & Sendable)?

  /// `error` with the partial body attached, when there is one to keep.
  static func attach(to error: MagpieError, response: HTTPURLResponse?, body: Data) -> MagpieError {
    guard error.cutsTransfer, let response, !body.isEmpty, (200..<300).contains(response.statusCode) else {
      return error
    }
    var attached = error
    attached.underlying = PartialBody(response: response, body: body, underlying: error.underlying)
    return attached
  }

  /// The partial body `error` carries, if any.
  static func of(_ error: MagpieError) -> PartialBody? {
    error.underlying as? PartialBody
  }

  var description: String {
    let kept = "\(body.count) bytes had arrived"
    guard let underlying else { return kept }
    return "\(underlying); \(kept)"
  }
}
