import Foundation

/// The source part of a transform URL: percent-decoding the plain form,
/// checking that it is an `http` or `https` URL, and writing it back.
enum SourceURL {
  /// The bytes a plain source may hold as they are: RFC 3986's unreserved
  /// and reserved characters; `%` is kept only before two hex digits.
  private static let allowed = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
  /// What the plain form writes unescaped: the unreserved characters.
  private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  /// `text` with each `%XX` decoded, `nil` when a `%` is not followed by
  /// two hex digits or the result is not UTF-8.
  static func percentDecoded(_ text: ArraySlice<UInt8>) -> String? {
    let bytes = Array(text)
    var output = [UInt8]()
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, let high = HexDigit.value(bytes[index + 1]),
          let low = HexDigit.value(bytes[index + 2])
        else { return nil }
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return String(validating: output, as: UTF8.self)
  }

  /// `text` with every byte but the unreserved ones as `%XX`: a plain
  /// source that decodes back to `text` and holds no `/`, `@` or `?`
  /// that the path could misread.
  static func percentEncoded(_ text: String) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var output = [UInt8]()
    for byte in text.utf8 {
      if unreserved.contains(byte) {
        output.append(byte)
      } else {
        output += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The URL `text` names, checked: `http` or `https` (any case) with a
  /// host, no control characters. `scheme:/host` becomes `scheme://host`
  /// (proxies merge `//` in paths; imgproxy repairs it too), and bytes a
  /// URL cannot hold (spaces, non-ASCII) are percent-encoded.
  static func validated(_ text: String) throws(TransformURLError) -> URL {
    var bytes = Array(text.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
      throw TransformURLError(.badRequest, "source: `\(text.prefix(60))` is no absolute URL")
    }
    let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
    guard scheme == "http" || scheme == "https" else {
      throw TransformURLError(.badRequest, "source: only http and https URLs are served, not `\(scheme.prefix(20))`")
    }
    let slashes = bytes[(colon + 1)...].prefix(2).filter { $0 == UInt8(ascii: "/") }.count
    if slashes == 1, bytes.count > colon + 2 { bytes.insert(UInt8(ascii: "/"), at: colon + 1) }
    guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
      throw TransformURLError(.badRequest, "source: holds a control character")
    }
    var escaped = [UInt8]()
    escaped.reserveCapacity(bytes.count)
    let digits = Array("0123456789ABCDEF".utf8)
    for (index, byte) in bytes.enumerated() {
      let isEscape =
        byte == UInt8(ascii: "%") && index + 2 < bytes.count && HexDigit.value(bytes[index + 1]) != nil
        && HexDigit.value(bytes[index + 2]) != nil
      if allowed.contains(byte) || isEscape {
        escaped.append(byte)
      } else {
        escaped += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
      }
    }
    let string = String(decoding: escaped, as: UTF8.self)
    guard string.utf8.dropFirst(colon + 1).starts(with: "//".utf8), let url = URL(string: string),
      let host = url.host, !host.isEmpty
    else {
      throw TransformURLError(.badRequest, "source: `\(text.prefix(60))` is no URL with a host")
    }
    return url
  }

}
