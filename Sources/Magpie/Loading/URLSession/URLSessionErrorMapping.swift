import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Translates FoundationNetworking's `URLError`s into ``MagpieError``s.
enum URLSessionErrorMapping {
  /// The Magpie error for a failed URLSession task.
  static func magpieError(_ error: any Error, url: URL?) -> MagpieError {
    if let error = error as? MagpieError { return error }
    let target = url.redactedDescription(or: "the request")
    guard let received = error as? URLError else {
      return MagpieError(.network, "loading \(target) failed: \(type(of: error))")
    }
    // A URLError's user info holds the full URL (query, password and
    // all), and MagpieError's description prints its underlying error:
    // only the code travels on.
    let urlError = URLError(received.code)
    switch urlError.code {
    case .cancelled:
      return MagpieError(.cancelled, "the load of \(target) was cancelled")
    case .timedOut:
      return MagpieError(.timedOut, "\(target) did not answer in time", underlying: urlError)
    case .badURL, .unsupportedURL:
      return MagpieError(.invalidArgument, "\(target) is not a URL this loader can fetch", underlying: urlError)
    case .httpTooManyRedirects, .redirectToNonExistentLocation:
      return MagpieError(.invalidResponse, "\(target) redirects in a loop or to nowhere", underlying: urlError)
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
      return MagpieError(.invalidResponse, "\(target) sent a response that is not valid HTTP", underlying: urlError)
    case .dataLengthExceedsMaximum:
      return MagpieError(.invalidResponse, "\(target) sent more than the allowed body size", underlying: urlError)
    case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
      .serverCertificateHasUnknownRoot, .secureConnectionFailed, .clientCertificateRejected:
      return MagpieError(.network, "the TLS connection to \(target) failed its checks", underlying: urlError)
    default:
      return MagpieError(.network, "loading \(target) failed: \(urlError.localizedDescription)", underlying: urlError)
    }
  }
}
