import Magpie

/// A request that cannot be answered with an image: the status and the
/// one-line reason the client sees.
struct ServeFailure: Error, Sendable {
  let status: Int
  let reason: String
  var headers: [(name: String, value: String)] = []

  /// The status and reason for a pipeline error: the source's problems
  /// are 4xx (or 502/504 when the source's server failed or was slow),
  /// ours are 500.
  init(_ error: MagpieError, maximumSourceBytes: Int) {
    switch error.refusal {
    case .maximumBodySize?:
      self.init(status: 413, reason: "the source is larger than the \(maximumSourceBytes)-byte limit")
      return
    case .addressFilter?:
      self.init(status: 403, reason: "the source's address is not public: \(error.reason)")
      return
    case .redirectHandler?:
      // The service's redirect handler is the source policy.
      self.init(status: 403, reason: "the source redirects outside the allowed sources")
      return
    case .redirectScheme?:
      self.init(status: 403, reason: "the source redirects outside http(s)")
      return
    default: break
    }
    switch error.code {
    case .httpStatus:
      let status = error.statusCode ?? 0
      if (400..<500).contains(status) {
        self.init(status: 404, reason: "the source answered \(status)")
      } else {
        self.init(status: 502, reason: "the source answered \(status)")
      }
    case .invalidResponse: self.init(status: 502, reason: "the source's response is unusable: \(error.reason)")
    case .imageTooLarge, .limitExceeded: self.init(status: 422, reason: error.reason)
    case .unsupportedFormat, .corruptData, .truncatedData:
      self.init(status: 422, reason: "the source is not a readable image: \(error.reason)")
    case .timedOut: self.init(status: 504, reason: "the source did not answer in time")
    case .network: self.init(status: 502, reason: "the source is unreachable: \(error.reason)")
    case .cancelled: self.init(status: 503, reason: "the request was cancelled", headers: [("Retry-After", "1")])
    default: self.init(status: 500, reason: "\(error.code): \(error.reason)")
    }
  }

  init(status: Int, reason: String, headers: [(name: String, value: String)] = []) {
    self.status = status
    self.reason = reason
    self.headers = headers
  }

  /// The response the client gets.
  var response: HTTPResponse { .text(status, reason, headers: headers) }
}
