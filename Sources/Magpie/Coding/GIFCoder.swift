import Foundation

/// PLACEHOLDER until the GIF coder lands: decodes nothing.
public struct GIFCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// Not yet.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { false }

  /// Not yet.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    throw MagpieError(.unsupportedFormat, "gif decoding is not built yet")
  }
}
