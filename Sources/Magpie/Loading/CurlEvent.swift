import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the libcurl thread hands a ``CurlDataLoader`` stream: raw enough
/// that the thread, which serves every transfer, does not also build the
/// `HTTPURLResponse`. The consumer's side turns it into a
/// ``DataLoadingEvent`` (see ``dataLoadingEvent``).
enum CurlEvent: Sendable {
  /// The final response head, as received.
  case head(url: URL, statusCode: Int, httpVersion: String, fields: [(String, String)])
  /// A body chunk with progress.
  case data(Data, received: Int64, expected: Int64?)

  /// The public event; repeated fields are joined with ", ".
  var dataLoadingEvent: DataLoadingEvent {
    switch self {
    case .head(let url, let statusCode, let httpVersion, let fields):
      var merged: [String: String] = [:]
      var names: [String: String] = [:]
      for (name, value) in fields {
        let key = name.lowercased()
        if let existing = names[key], let previous = merged[existing] {
          merged[existing] = previous + ", " + value
        } else {
          names[key] = name
          merged[name] = value
        }
      }
      let response =
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: merged)
        ?? HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: [:])!
      return .response(response)
    case .data(let data, let received, let expected):
      return .data(data, received: received, expected: expected)
    }
  }
}
