import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the libcurl thread hands a ``CurlDataLoader`` stream: raw enough
/// that the thread, which serves every transfer, does not also build the
/// `HTTPURLResponse`. The consumer's side turns it into a
/// ``DataLoadingEvent`` (see ``dataLoadingEvent``).
enum CurlEvent: Sendable {
  /// The final response head: its field lines, trimmed and joined by LF.
  case head(url: URL, statusCode: Int, httpVersion: String, lines: [UInt8])
  /// A body chunk with progress; a collecting transfer's whole body, or
  /// its progress alone (no bytes).
  case data(Data, received: Int64, expected: Int64?)

  /// The public event; repeated fields are joined with ", ", folded lines
  /// continue the field before them.
  var dataLoadingEvent: DataLoadingEvent {
    switch self {
    case .head(let url, let statusCode, let httpVersion, let lines):
      var merged: [String: String] = [:]
      var names: [String: String] = [:]
      var last: String?
      for line in lines.split(separator: 0x0A) {
        if line.first == 0x20 || line.first == 0x09 {
          if let last, let previous = merged[last] {
            merged[last] = previous + " " + String(decoding: Self.trimmed(line), as: UTF8.self)
          }
          continue
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = String(decoding: Self.trimmed(line[..<colon]), as: UTF8.self)
        let value = String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
        let key = name.lowercased()
        if let existing = names[key], let previous = merged[existing] {
          merged[existing] = previous + ", " + value
          last = existing
        } else {
          names[key] = name
          merged[name] = value
          last = name
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

  /// `bytes` without leading and trailing spaces and tabs (Foundation's
  /// trimming cost a quarter of a consumer's time here).
  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return bytes[start..<end]
  }
}
