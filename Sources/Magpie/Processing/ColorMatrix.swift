/// An affine map of straight colour, `s' = M s + b` (values 0...1), applied
/// to premultiplied pixels as `c' = M c + b a`, which is the same map
/// (multiply both sides by alpha) with no division. Alpha is kept. Tint,
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
  /// 0...alpha, so they stay valid premultiplied pixels.
  func apply(to source: PixelBuffer) -> PixelBuffer {
    let one = Double(1 << Self.shift)
    // Column j holds what input channel j adds to each output channel; the
    // alpha column holds the offsets and passes alpha through.
    var columns = [SIMD4<Int32>](repeating: .zero, count: 4)
    var fitsInt16 = true
    for j in 0..<3 {
      for r in 0..<3 {
        let v = (m[r * 3 + j] * one).rounded()
        fitsInt16 = fitsInt16 && abs(v) < 32_767
        columns[j][r] = Int32(max(-1e9, min(1e9, v)))
      }
    }
    for r in 0..<3 {
      let v = (b[r] * one).rounded()
      fitsInt16 = fitsInt16 && abs(v) < 32_767
      columns[3][r] = Int32(max(-1e9, min(1e9, v)))
    }
    columns[3][3] = Int32(one)
    let (w, h, stride) = (source.width, source.height, source.bytesPerRow)
    let keepsOpaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: w, height: h) { out in
      source.withUnsafeBytes { src in
        let (c0, c1, c2, c3) = (columns[0], columns[1], columns[2], columns[3])
        RowParallelism.run(h, costPerRow: w * 4) { rows in
          for y in rows {
            let s = src.baseAddress! + y &* stride
            let d = out.baseAddress! + y &* w &* 4
            if fitsInt16 {
              // Coefficients and bytes that fit 16 bits: LLVM multiplies
              // them with SSE2's pmaddwd.
              let k0 = SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int16>(truncatingIfNeeded: c0))
              let k1 = SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int16>(truncatingIfNeeded: c1))
              let k2 = SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int16>(truncatingIfNeeded: c2))
              let k3 = SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int16>(truncatingIfNeeded: c3 &>> 1))
              for x in 0..<w {
                let p = s.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                d.storeBytes(
                  of: Self.transform(p, k0, k1, k2, k3, alphaShift: 1), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
              }
            } else {
              for x in 0..<w {
                let p = s.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                d.storeBytes(
                  of: Self.transform(p, c0, c1, c2, c3, alphaShift: 0), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
              }
            }
          }
        }
      }
      return keepsOpaque
    }
  }

  /// One pixel: `k0 r + k1 g + k2 b + (k3 << alphaShift) a`, rounded,
  /// clamped to 0...a.
  @inline(__always)
  private static func transform(
    _ p: SIMD4<UInt8>, _ k0: SIMD4<Int32>, _ k1: SIMD4<Int32>, _ k2: SIMD4<Int32>, _ k3: SIMD4<Int32>,
    alphaShift: Int32
  ) -> SIMD4<UInt8> {
    let v = SIMD4<Int32>(truncatingIfNeeded: p)
    let alphaTerm = (k3 &* SIMD4(repeating: v[3])) &<< alphaShift
    var acc = k0 &* SIMD4(repeating: v[0]) &+ k1 &* SIMD4(repeating: v[1]) &+ k2 &* SIMD4(repeating: v[2])
    acc &+= alphaTerm &+ SIMD4(repeating: 1 << (shift - 1))
    let result = (acc &>> shift).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: v[3]))
    return SIMD4<UInt8>(truncatingIfNeeded: result)
  }
}
