import Foundation

/// PLACEHOLDER until the WebP coder lands: decodes nothing.
public struct WebPCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// Not yet.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { false }

  /// Not yet.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    throw MagpieError(.unsupportedFormat, "webp decoding is not built yet")
  }
}
