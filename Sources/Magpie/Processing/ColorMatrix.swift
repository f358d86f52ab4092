/// An affine map of straight colour, `s' = M s + b` (values 0...1), applied
/// to straight pixels as it is and to premultiplied pixels as
/// `c' = M c + b a`, which is the same map (multiply both sides by alpha)
/// with no division. Alpha and the alpha representation are kept. Tint,
/// colour controls, grayscale and overlay are all such maps.
struct ColorMatrix {
  /// Row-major 3 × 3 matrix.
  var m: [Double]
  /// Offset added to each straight channel.
  var b: SIMD3<Double>

  /// The identity map.
  static let identity = ColorMatrix(m: [1, 0, 0, 0, 1, 0, 0, 0, 1], b: .zero)

  /// Rec. 601 luma weights, as JPEG and Pillow's `convert("L")` use.
  static let lumaWeights = SIMD3<Double>(0.299, 0.587, 0.114)

  /// `self` after `first`: `x -> self(first(x))`.
  func after(_ first: ColorMatrix) -> ColorMatrix {
    var product = [Double](repeating: 0, count: 9)
    for r in 0..<3 {
      for c in 0..<3 {
        product[r * 3 + c] = (0..<3).reduce(0) { $0 + m[r * 3 + $1] * first.m[$1 * 3 + c] }
      }
    }
    var offset = b
    for r in 0..<3 { offset[r] += (0..<3).reduce(0) { $0 + m[r * 3 + $1] * first.b[$1] } }
    return ColorMatrix(m: product, b: offset)
  }

  /// Fixed-point fraction bits: a coefficient of 1 is 4096.
  private static let shift: Int32 = 12

  /// The map applied to every pixel. Results are rounded and clamped to
  /// 0...255 for straight pixels and 0...alpha for premultiplied ones, so
  /// they stay valid in their representation.
  ///
  /// Four pixels go at a time as channel planes: a 32-bit lane per pixel,
  /// split by shifts and masks into red, green, blue and alpha vectors,
  /// each output channel three multiply-adds of whole vectors, then packed
  /// back. No per-pixel shuffles, which SSE2 does badly.
  func apply(to source: PixelBuffer) -> PixelBuffer {
    // Straight pixels are mapped as they are: no premultiplying pass, and
    // exact colour where alpha is low.
    let straight = source.alphaRepresentation == .straight && !source.isOpaque
    let one = Double(1 << Self.shift)
    // Coefficients beyond ±8 (or offsets beyond ±8 alphas) would overflow
    // the 16-bit products; clamp them there, far past any useful setting.
    func fixed(_ value: Double) -> Int32 { Int32(max(-32_767, min(32_767, (value * one).rounded()))) }
    let k = (0..<9).map { fixed(m[$0]) }
    let offsets = (0..<3).map { fixed(b[$0]) }
    let (w, h, stride) = (source.width, source.height, source.bytesPerRow)
    let keepsOpaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: w, height: h, alpha: source.alphaRepresentation) { out in
      source.withUnsafeBytes { src in
        let plan = Plan(k: k, offsets: offsets, straight: straight)
        RowParallelism.run(h, costPerRow: w * 4) { rows in
          for y in rows {
            plan.run(src.baseAddress! + y &* stride, out.baseAddress! + y &* w &* 4, count: w)
          }
        }
      }
      return keepsOpaque
    }
  }

  /// The fixed-point coefficients, as the loop uses them: nine matrix
  /// entries then three offsets, as `Int16`, which is what tells LLVM that
  /// the products fit SSE2's `pmaddwd`.
  private struct Plan {
    /// Which of the loop's copies runs.
    enum Shape {
      /// Any matrix.
      case general
      /// Every row the same (grayscale): one channel computed, copied.
      case uniform
      /// Only the diagonal and offsets (tint, overlay): one term a channel.
      case diagonal
    }

    let coefficients: [Int16]
    let shape: Shape
    /// Whether pixels are straight: offsets scale by 255, not by alpha.
    let straight: Bool

    init(k: [Int32], offsets: [Int32], straight: Bool) {
      self.straight = straight
      coefficients = (k + offsets).map { Int16(truncatingIfNeeded: $0) }
      if k[0...2] == k[3...5] && k[0...2] == k[6...8] && offsets.allSatisfy({ $0 == offsets[0] }) {
        shape = .uniform
      } else if [1, 2, 3, 5, 6, 7].allSatisfy({ k[$0] == 0 }) {
        shape = .diagonal
      } else {
        shape = .general
      }
    }

    func run(_ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer, count: Int) {
      switch (shape, straight) {
      case (.general, false): run(source, destination, count: count, shape: .general, straight: false)
      case (.uniform, false): run(source, destination, count: count, shape: .uniform, straight: false)
      case (.diagonal, false): run(source, destination, count: count, shape: .diagonal, straight: false)
      case (.general, true): run(source, destination, count: count, shape: .general, straight: true)
      case (.uniform, true): run(source, destination, count: count, shape: .uniform, straight: true)
      case (.diagonal, true): run(source, destination, count: count, shape: .diagonal, straight: true)
      }
    }

    @inline(__always)
    private func run(
      _ source: UnsafeRawPointer, _ destination: UnsafeMutableRawPointer, count: Int, shape: Shape, straight: Bool
    ) {
      coefficients.withUnsafeBufferPointer { c in
        let c = c.baseAddress!
        var x = 0
        while x &+ 4 <= count {
          let p = source.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
          destination.storeBytes(
            of: Self.transform(p, c, shape, straight), toByteOffset: x &* 4, as: SIMD4<UInt32>.self)
          x &+= 4
        }
        while x < count {
          let p = SIMD4<UInt32>(repeating: source.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
          destination.storeBytes(of: Self.transform(p, c, shape, straight)[0], toByteOffset: x &* 4, as: UInt32.self)
          x &+= 1
        }
      }
    }

    /// Four pixels (one per lane, RGBA bytes in memory order, so red is the
    /// low byte: every platform Swift runs on is little-endian).
    @inline(__always)
    private static func transform(
      _ p: SIMD4<UInt32>, _ c: UnsafePointer<Int16>, _ shape: Shape, _ straight: Bool
    ) -> SIMD4<UInt32> {
      let mask = SIMD4<UInt32>(repeating: 0xFF)
      let r = SIMD4<Int32>(truncatingIfNeeded: p & mask)
      let g = SIMD4<Int32>(truncatingIfNeeded: (p &>> 8) & mask)
      let b = SIMD4<Int32>(truncatingIfNeeded: (p &>> 16) & mask)
      // The scale of offsets and the clamp: alpha, or full for straight.
      let a = straight ? SIMD4<Int32>(repeating: 255) : SIMD4<Int32>(truncatingIfNeeded: p &>> 24)
      let half = SIMD4<Int32>(repeating: 1 << (ColorMatrix.shift - 1))
      @inline(__always) func coefficient(_ i: Int) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int16>(repeating: c[i]))
      }
      @inline(__always) func finish(_ sum: SIMD4<Int32>) -> SIMD4<UInt32> {
        var v = (sum &+ half) &>> ColorMatrix.shift
        // Clamp to 0...alpha with masks: max(v, 0), then min(v, a).
        v &= ~(v &>> 31)
        let over = v &- a
        v &-= over & ~(over &>> 31)
        return SIMD4<UInt32>(truncatingIfNeeded: v)
      }
      @inline(__always) func channel(_ row: Int) -> SIMD4<UInt32> {
        var v = r &* coefficient(row &* 3) &+ g &* coefficient(row &* 3 &+ 1) &+ b &* coefficient(row &* 3 &+ 2)
        v &+= a &* coefficient(9 &+ row)
        return finish(v)
      }
      let alpha = p & SIMD4(repeating: 0xFF00_0000)
      switch shape {
      case .general:
        return channel(0) | channel(1) &<< 8 | channel(2) &<< 16 | alpha
      case .uniform:
        let gray = channel(0)
        return gray | gray &<< 8 | gray &<< 16 | alpha
      case .diagonal:
        let red = finish(r &* coefficient(0) &+ a &* coefficient(9))
        let green = finish(g &* coefficient(4) &+ a &* coefficient(10))
        let blue = finish(b &* coefficient(8) &+ a &* coefficient(11))
        return red | green &<< 8 | blue &<< 16 | alpha
      }
    }
  }
}
