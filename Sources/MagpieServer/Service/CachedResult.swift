import Foundation
import Magpie

/// One transformed image as the result cache keeps it: the encoded bytes,
/// their format and their entity tag.
public struct CachedResult: Sendable {
  /// The encoded image.
  public var data: Data
  /// Its format.
  public var format: ImageFormat
  /// Its strong entity tag, quoted.
  public var etag: String

  /// A result with these parts.
  public init(data: Data, format: ImageFormat, etag: String) {
    self.data = data
    self.format = format
    self.etag = etag
  }

  /// The metadata a storage tier keeps beside the bytes.
  var metadata: Data { Data("magpie-serve-1\n\(format.rawValue)\n\(etag)".utf8) }

  /// A result read back from a tier; `nil` when the metadata is not ours.
  init?(data: Data, metadata: Data?) {
    guard let metadata else { return nil }
    let lines = String(decoding: metadata, as: UTF8.self).split(separator: "\n").map(String.init)
    guard lines.count == 3, lines[0] == "magpie-serve-1", let format = ImageFormat(rawValue: lines[1]),
      lines[2].hasPrefix("\"")
    else { return nil }
    self.init(data: data, format: format, etag: lines[2])
  }
}
