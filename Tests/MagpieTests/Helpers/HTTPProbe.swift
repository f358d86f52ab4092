import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A plain HTTP client for tests of Magpie's own servers: one request, the
/// status, header fields and body back, nothing cached, redirects not
/// followed.
enum HTTPProbe {
  /// What came back.
  struct Answer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// A header's value by name, any case.
    func header(_ name: String) -> String? {
      headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
  }

  private final class NoRedirects: NSObject, URLSessionTaskDelegate {
    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) { completionHandler(nil) }
  }

  private static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
    configuration.urlCache = nil
    configuration.timeoutIntervalForRequest = 60
    return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
  }()

  /// `method` of `http://127.0.0.1:PORT` + `path` with `headers`.
  static func send(
    port: Int, path: String, method: String = "GET", headers: [String: String] = [:]
  ) async throws -> Answer {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (body, response) = try await session.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { fields[name] = value }
    }
    return Answer(status: http.statusCode, headers: fields, body: body)
  }
}
