import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The start of a body whose transfer failed, with the validator that
/// names its version (Nuke's `ResumableData`): the next attempt asks for
/// the rest (`Range: bytes=N-` with `If-Range`), takes a `206` that
/// continues at byte N of the same version, and a `200` (the resource
/// changed, or the server ignores ranges) as the whole body. Two versions
/// are never spliced: the `206` must carry the same validator and start
/// where the kept bytes end.
struct ResumableData: Sendable {
  /// The bytes kept.
  let data: Data
  /// The strong ETag, else the Last-Modified date, of the version.
  let validator: String
  /// The whole body's size, when the response announced it.
  let total: Int64?

  /// What can be kept of `partial`: a `200` (or a `206` that continued
  /// `previous`) from a server that takes byte ranges and names the
  /// version; `nil` otherwise.
  init?(_ partial: PartialBody, continuing previous: ResumableData?) {
    let response = partial.response
    guard
      response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased().contains("bytes") == true
        || previous != nil
    else { return nil }
    let etag = response.value(forHTTPHeaderField: "ETag")
    let strongETag = etag.flatMap { $0.hasPrefix("W/") ? nil : $0 }
    guard let validator = strongETag ?? response.value(forHTTPHeaderField: "Last-Modified") else { return nil }
    switch response.statusCode {
    case 200:
      data = partial.body
      total = response.expectedContentLength > 0 ? response.expectedContentLength : nil
    case 206:
      guard let previous, previous.validator == validator,
        let range = Self.contentRange(response), range.start == Int64(previous.data.count)
      else { return nil }
      data = previous.data + partial.body
      total = range.total
    default:
      return nil
    }
    self.validator = validator
  }

  /// Asks for the rest of this version in `request`.
  func apply(to request: inout URLRequest) {
    request.setValue("bytes=\(data.count)-", forHTTPHeaderField: "Range")
    request.setValue(validator, forHTTPHeaderField: "If-Range")
  }

  /// The whole body from the answer to a request ``apply(to:)`` changed:
  /// a `206` of the same version that starts where the kept bytes end is
  /// joined to them (with a `200` response in its place); any `200` is
  /// whole already. Throws for a `206` that does not continue them.
  func resume(_ body: Data, response: HTTPURLResponse) throws(MagpieError) -> (Data, HTTPURLResponse) {
    guard response.statusCode == 206 else { return (body, response) }
    let url = response.url?.redactedDescription ?? "the server"
    let etag = response.value(forHTTPHeaderField: "ETag")
    let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
    guard etag == validator || (etag == nil && lastModified == validator) else {
      throw MagpieError(
        .invalidResponse, "\(url) sent the rest of another version of the image (its validator changed)")
    }
    guard let range = Self.contentRange(response), range.start == Int64(data.count),
      range.total.map({ $0 == Int64(data.count + body.count) }) ?? true
    else {
      throw MagpieError(.invalidResponse, "\(url) sent a range that does not continue the \(data.count) bytes kept")
    }
    var fields = response.allHeaderFields as? [String: String] ?? [:]
    fields["Content-Range"] = nil
    fields["Content-Length"] = String(data.count + body.count)
    guard let url = response.url,
      let whole = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
    else { throw MagpieError(.invalidResponse, "the resumed response could not be rebuilt") }
    return (data + body, whole)
  }

  /// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
  static func contentRange(_ response: HTTPURLResponse) -> (start: Int64, total: Int64?)? {
    guard let value = response.value(forHTTPHeaderField: "Content-Range"),
      value.lowercased().hasPrefix("bytes ")
    else { return nil }
    let spec = value.dropFirst(6)
    let parts = spec.split(separator: "/", maxSplits: 1)
    guard let range = parts.first, let dash = range.firstIndex(of: "-"),
      let start = Int64(range[range.startIndex..<dash].trimmingCharacters(in: .whitespaces))
    else { return nil }
    let total = parts.count == 2 ? Int64(parts[1].trimmingCharacters(in: .whitespaces)) : nil
    return (start, total)
  }
}
