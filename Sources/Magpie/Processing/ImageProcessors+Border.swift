extension ImageProcessors {
  /// Paints a `width`-pixel frame of `color` over the image's outer edge
  /// (source-over, so a translucent colour tints what is under it). The
  /// image keeps its size.
  public struct Border: ImageProcessor {
    /// The frame's thickness in pixels.
    public let width: Int
    /// The frame's colour.
    public let color: RGBAColor

    /// A `width`-pixel frame of `color`.
    public init(width: Int, color: RGBAColor) {
      precondition(width >= 0, "border width must not be negative")
      self.width = width
      self.color = color
    }

    /// `border(WIDTH,#RRGGBBAA)`.
    public var identifier: String { "border(\(width),\(color))" }

    /// The framed image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { framed($0) }
    }

    private func framed(_ source: PixelBuffer) -> PixelBuffer {
      guard width > 0, color.alpha > 0 else { return source }
      let paint = color.premultiplied
      let inverse = 255 - UInt32(paint[3])
      // Blending needs premultiplied pixels; a straight source is converted
      // into a fresh buffer that is then changed in place.
      var result = source.premultiplied()
      let (w, h, stride) = (result.width, result.height, result.bytesPerRow)
      let band = min(width, (max(w, h) + 1) / 2)
      result.withUnsafeMutableBytes(keepsOpaque: source.isOpaque) { raw in
        for y in 0..<h {
          let row = raw.baseAddress! + y * stride
          let whole = y < band || y >= h - band
          // Rows inside the band are painted whole; others only at the sides.
          let spans = whole ? [0..<w] : [0..<min(band, w), max(w - band, 0)..<w]
          for span in spans {
            for x in span {
              let p = row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
              let t = SIMD4<UInt32>(truncatingIfNeeded: p) &* inverse &+ 128
              let under = SIMD4<UInt8>(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
              row.storeBytes(of: paint &+ under, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
          }
        }
      }
      return result
    }
  }
}
