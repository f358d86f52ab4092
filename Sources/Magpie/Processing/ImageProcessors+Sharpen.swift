extension ImageProcessors {
  /// An unsharp mask, as Pillow's `UnsharpMask(radius, percent, threshold)`:
  /// each colour value moves away from its Gaussian-blurred value by
  /// `percent` % of the difference, where the difference is larger than
  /// `threshold`.
  ///
  /// The blur is ``Blur``'s (standard deviation `radius` pixels, Pillow's
  /// three-box scheme), and the arithmetic is Pillow's: `value + diff *
  /// percent / 100`, the division truncating toward zero, clamped. Colour
  /// is sharpened premultiplied (and kept no brighter than its alpha), so
  /// transparent neighbours add no dark halo; alpha itself is kept, not
  /// sharpened. On opaque pixels that is exactly Pillow's operation on RGB.
  public struct Sharpen: ImageProcessor {
    /// The blur's standard deviation in pixels.
    public let radius: Double
    /// How much of the difference from the blur is added, in percent.
    public let percent: Int
    /// Differences of at most this many levels are left alone.
    public let threshold: Int

    /// Sharpens with a blur of standard deviation `radius` pixels,
    /// `percent` % strength (Pillow's default 150) and `threshold` levels
    /// (Pillow's default 3); radius 0 leaves the image as it is.
    public init(radius: Double, percent: Int = 150, threshold: Int = 3) {
      precondition(radius.isFinite && radius >= 0, "sharpen radius must be finite and not negative")
      precondition(percent >= 0 && threshold >= 0, "sharpen percent and threshold must not be negative")
      self.radius = radius
      self.percent = percent
      self.threshold = threshold
    }

    /// `sharpen(R,PERCENT,THRESHOLD)`, e.g. `sharpen(2,150,3)`.
    public var identifier: String { "sharpen(\(ProcessorIdentifier.number(radius)),\(percent),\(threshold))" }

    /// The sharpened image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { sharpened($0) }
    }

    /// `source` sharpened (premultiplied), or `source` itself when the
    /// radius or percent is 0.
    package func sharpened(_ source: PixelBuffer) -> PixelBuffer {
      guard radius > 0, percent > 0, source.width > 0, source.height > 0 else { return source }
      let source = source.premultiplied()
      let blurred = GaussianBlur.blur(source, sigma: radius)
      let (w, h, stride) = (source.width, source.height, source.bytesPerRow)
      let (percent, threshold) = (percent, threshold)
      return PixelBuffer(uninitializedWidth: w, height: h, alpha: .premultiplied) { out in
        source.withUnsafeBytes { src in
          blurred.withUnsafeBytes { blur in
            RowParallelism.run(h, costPerRow: w * 4) { rows in
              for y in rows {
                let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self) + y &* stride
                let b = blur.baseAddress!.assumingMemoryBound(to: UInt8.self) + y &* blurred.bytesPerRow
                let d = out.baseAddress!.assumingMemoryBound(to: UInt8.self) + y &* w &* 4
                for x in Swift.stride(from: 0, to: w &* 4, by: 4) {
                  let alpha = Int(s[x &+ 3])
                  for c in 0..<3 {
                    let value = Int(s[x &+ c])
                    let diff = value &- Int(b[x &+ c])
                    // Swift's division truncates toward zero, as C's does.
                    let moved = abs(diff) > threshold ? value &+ diff &* percent / 100 : value
                    d[x &+ c] = UInt8(truncatingIfNeeded: min(max(moved, 0), alpha))
                  }
                  d[x &+ 3] = UInt8(truncatingIfNeeded: alpha)
                }
              }
            }
          }
        }
        return source.isOpaque
      }
    }
  }
}
