import CMagpieCodecs

/// What a PNG's IHDR (and a tRNS chunk before its image data) says, as
/// libpng validated it.
struct PNGHeader: Sendable, Equatable {
  /// Size in pixels as stored.
  var size: PixelSize
  /// Bits per sample: 1, 2, 4, 8 or 16.
  var bitDepth: Int
  /// PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
  var colorType: Int
  /// Whether the image is Adam7-interlaced.
  var isInterlaced: Bool
  /// Whether a tRNS chunk makes some colours transparent.
  var hasTransparency: Bool

  /// Copies libpng's answer.
  init(_ header: mp_png_header) {
    size = PixelSize(width: Int(header.width), height: Int(header.height))
    bitDepth = Int(header.bit_depth)
    colorType = Int(header.color_type)
    isInterlaced = header.interlaced != 0
    hasTransparency = header.has_transparency != 0
  }

  /// Whether any pixel can be less than opaque: the colour type carries alpha
  /// (4, 6) or a tRNS chunk is present.
  var canHaveAlpha: Bool { colorType & 4 != 0 || hasTransparency }

  /// The 13 data bytes of an IHDR chunk for an image of `size` with this
  /// header's sample format, as an APNG frame's standalone stream needs.
  func ihdrData(size: PixelSize) -> [UInt8] {
    func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    // Compression method 0 and filter method 0 are the only ones PNG defines.
    return bigEndian(size.width) + bigEndian(size.height) + [
      UInt8(bitDepth), UInt8(colorType), 0, 0, isInterlaced ? 1 : 0,
    ]
  }
}
