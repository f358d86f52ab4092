extension ImageProcessors {
  /// Rounds the image's corners with anti-aliased edges; outside the curve
  /// the image becomes `background` (transparent by default).
  public struct RoundCorner: ImageProcessor {
    /// Which corners to round.
    public struct Corners: OptionSet, Hashable, Sendable {
      /// The bits, one per corner.
      public let rawValue: Int
      /// Creates a set from its bits.
      public init(rawValue: Int) { self.rawValue = rawValue }

      /// The top-left corner.
      public static let topLeft = Corners(rawValue: 1)
      /// The top-right corner.
      public static let topRight = Corners(rawValue: 2)
      /// The bottom-left corner.
      public static let bottomLeft = Corners(rawValue: 4)
      /// The bottom-right corner.
      public static let bottomRight = Corners(rawValue: 8)
      /// All four corners.
      public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

      /// `all`, or the corners joined with `+` (e.g. `topLeft+bottomRight`).
      var name: String {
        if self == .all { return "all" }
        let names: [(Corners, String)] = [
          (.topLeft, "topLeft"), (.topRight, "topRight"), (.bottomLeft, "bottomLeft"), (.bottomRight, "bottomRight"),
        ]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: "+")
      }
    }

    /// The corner radius in pixels (at most half the shorter side is used).
    public let radius: Double
    /// The corners rounded.
    public let corners: Corners
    /// What shows outside the rounded corners; `nil` is transparent.
    public let background: RGBAColor?

    /// Rounds `corners` (all by default) with `radius` pixels.
    public init(radius: Double, corners: Corners = .all, background: RGBAColor? = nil) {
      precondition(radius.isFinite && radius >= 0, "corner radius must be finite and not negative")
      self.radius = radius
      self.corners = corners
      self.background = background
    }

    /// `round(R,CORNERS,#RRGGBBAA)`, e.g. `round(16,all,#00000000)`.
    public var identifier: String {
      let fill = background.flatMap { $0.alpha == 0 ? nil : $0 } ?? .clear
      return "round(\(ProcessorIdentifier.number(radius)),\(corners.name),\(fill))"
    }

    /// The image with its corners rounded.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      try item.mapFrames(processor: identifier, options: options) { rounded($0) }
    }

    private func rounded(_ source: PixelBuffer) -> PixelBuffer {
      let r = min(radius, Double(min(source.width, source.height)) / 2)
      let extent = Int(r.rounded(.up))
      guard extent > 0, !corners.isEmpty else { return source }
      let coverage = Self.coverage(radius: r, extent: extent)
      let fill = background?.premultiplied ?? .zero
      // Straight pixels stay straight: only the corners change, each blended
      // on its own, so the rest keeps its stored values and nothing pays for
      // premultiplying the whole image.
      let straight = source.alphaRepresentation == .straight && !source.isOpaque
      var result = straight ? source : source.premultiplied()
      let keepsOpaque = source.isOpaque && fill[3] == 255
      let (w, h, stride) = (result.width, result.height, result.bytesPerRow)
      result.withUnsafeMutableBytes(keepsOpaque: keepsOpaque) { raw in
        let base = raw.baseAddress!
        for corner in [Corners.topLeft, .topRight, .bottomLeft, .bottomRight] where corners.contains(corner) {
          let right = corner == .topRight || corner == .bottomRight
          let bottom = corner == .bottomLeft || corner == .bottomRight
          for j in 0..<extent {
            let y = bottom ? h - 1 - j : j
            for i in 0..<extent {
              let c = coverage[j * extent + i]
              if c == 255 { continue }
              let x = right ? w - 1 - i : i
              let offset = y * stride + x * 4
              let p = base.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
              let out = straight ? Self.blendStraight(p, fill, coverage: c) : Self.blend(p, fill, coverage: c)
              base.storeBytes(of: out, toByteOffset: offset, as: SIMD4<UInt8>.self)
            }
          }
        }
      }
      return result
    }

    /// `pixel * c + fill * (1 - c)` with `c` in 255ths, rounded.
    @inline(__always)
    static func blend(_ pixel: SIMD4<UInt8>, _ fill: SIMD4<UInt8>, coverage c: UInt8) -> SIMD4<UInt8> {
      let k = UInt32(c)
      let t =
        SIMD4<UInt32>(truncatingIfNeeded: pixel) &* k &+ SIMD4<UInt32>(truncatingIfNeeded: fill) &* (255 - k) &+ 128
      return SIMD4<UInt8>(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
    }

    /// ``blend(_:_:coverage:)`` for a straight pixel, giving a straight
    /// pixel: over a transparent fill only alpha shrinks.
    @inline(__always)
    static func blendStraight(_ pixel: SIMD4<UInt8>, _ fill: SIMD4<UInt8>, coverage c: UInt8) -> SIMD4<UInt8> {
      if fill == .zero {
        return SIMD4(pixel[0], pixel[1], pixel[2], PixelBuffer.multiplyDivide255(UInt32(pixel[3]), UInt32(c)))
      }
      let a = UInt32(pixel[3])
      let premultiplied = SIMD4(
        PixelBuffer.multiplyDivide255(UInt32(pixel[0]), a), PixelBuffer.multiplyDivide255(UInt32(pixel[1]), a),
        PixelBuffer.multiplyDivide255(UInt32(pixel[2]), a), pixel[3])
      var out = blend(premultiplied, fill, coverage: c)
      withUnsafeMutableBytes(of: &out) { PixelBuffer.unpremultiply($0) }
      return out
    }

    /// How much of each pixel of the top-left `extent` × `extent` square
    /// lies inside a quarter circle of `radius` centred at (`radius`,
    /// `radius`), in 255ths: one minus the distance of the pixel's centre
    /// past the arc, clamped, which is the pixel's covered area to within a
    /// few percent.
    static func coverage(radius: Double, extent: Int) -> [UInt8] {
      var table = [UInt8](repeating: 255, count: extent * extent)
      for j in 0..<extent {
        for i in 0..<extent {
          let dx = max(0, radius - (Double(i) + 0.5))
          let dy = max(0, radius - (Double(j) + 0.5))
          let inside = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
          table[j * extent + i] = UInt8((inside * 255).rounded())
        }
      }
      return table
    }
  }
}
