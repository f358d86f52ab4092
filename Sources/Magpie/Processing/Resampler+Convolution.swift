extension Resampler {
  /// Resamples each row of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  static func convolveRows(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let width = weights.outputCount
    let height = source.height
    let taps = weights.taps
    let stride = source.bytesPerRow
    return PixelBuffer(uninitializedWidth: width, height: height) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        weights.fixed.withUnsafeBytes { w in
          weights.starts.withUnsafeBufferPointer { starts in
            let weightBase = w.baseAddress!
            let startBase = starts.baseAddress!
            RowParallelism.run(height, costPerRow: width &* taps) { rows in
              for y in rows {
                let row = src + y &* stride
                let outRow = dst + y &* width &* 4
                var x = 0
                while x < width {
                  let acc = convolve(
                    pixels: row + startBase[x] &* 4, weights: weightBase + x &* taps &* 2, taps: taps)
                  outRow.storeBytes(of: clampPremultiplied(acc), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                  x &+= 1
                }
              }
            }
          }
        }
      }
      return source.isOpaque
    }
  }

  /// Resamples each column of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  static func convolveColumns(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let width = source.width
    let height = weights.outputCount
    let rowBytes = width &* 4
    let taps = weights.taps
    let stride = source.bytesPerRow
    return PixelBuffer(uninitializedWidth: width, height: height) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        weights.fixed.withUnsafeBytes { w in
          weights.starts.withUnsafeBufferPointer { starts in
            let weightBase = w.baseAddress!
            let startBase = starts.baseAddress!
            RowParallelism.run(height, costPerRow: width &* taps) { rows in
              for y in rows {
                let first = src + startBase[y] &* stride
                let rowWeights = weightBase + y &* taps &* 2
                let outRow = dst + y &* rowBytes
                var i = 0
                // Four pixels at a time, two source rows per step.
                while i &+ 16 <= rowBytes {
                  let acc = convolve16(column: first + i, stride: stride, weights: rowWeights, taps: taps)
                  outRow.storeBytes(of: clampPremultiplied(acc), toByteOffset: i, as: SIMD16<UInt8>.self)
                  i &+= 16
                }
                while i < rowBytes {
                  let acc = convolve4(column: first + i, stride: stride, weights: rowWeights, taps: taps)
                  outRow.storeBytes(of: clampPremultiplied(acc), toByteOffset: i, as: SIMD4<UInt8>.self)
                  i &+= 4
                }
              }
            }
          }
        }
      }
      return source.isOpaque
    }
  }

  /// One output pixel of a row pass: `taps` adjacent pixels times their
  /// weights. The weights are `Int16` and the pixels bytes, so LLVM turns
  /// each product into SSE2's `pmaddwd` (plain `Int32` products need
  /// SSE4.1's `pmulld`, which the x86-64 baseline lacks).
  @inline(__always)
  private static func convolve(pixels: UnsafeRawPointer, weights: UnsafeRawPointer, taps: Int) -> SIMD4<Int32> {
    var even = SIMD4<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
    var odd = SIMD4<Int32>.zero
    var k = 0
    while k &+ 2 <= taps {
      let w = weights.loadUnaligned(fromByteOffset: k &* 2, as: SIMD2<Int16>.self)
      let p0 = pixels.loadUnaligned(fromByteOffset: k &* 4, as: SIMD4<UInt8>.self)
      let p1 = pixels.loadUnaligned(fromByteOffset: k &* 4 &+ 4, as: SIMD4<UInt8>.self)
      even &+= SIMD4<Int32>(truncatingIfNeeded: p0) &* SIMD4<Int32>(repeating: Int32(w[0]))
      odd &+= SIMD4<Int32>(truncatingIfNeeded: p1) &* SIMD4<Int32>(repeating: Int32(w[1]))
      k &+= 2
    }
    if k < taps {
      let w = weights.loadUnaligned(fromByteOffset: k &* 2, as: Int16.self)
      let p = pixels.loadUnaligned(fromByteOffset: k &* 4, as: SIMD4<UInt8>.self)
      even &+= SIMD4<Int32>(truncatingIfNeeded: p) &* SIMD4<Int32>(repeating: Int32(w))
    }
    return even &+ odd
  }

  /// Sixteen bytes (four pixels) of a column pass. Two source rows go in
  /// per step, their bytes interleaved so each `Int32` lane sums a pair of
  /// products, the shape of `pmaddwd`.
  @inline(__always)
  private static func convolve16(
    column: UnsafeRawPointer, stride: Int, weights: UnsafeRawPointer, taps: Int
  ) -> SIMD16<Int32> {
    var low = SIMD8<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
    var high = low
    var k = 0
    var row = column
    while k &+ 2 <= taps {
      let w = weights.loadUnaligned(fromByteOffset: k &* 2, as: SIMD2<Int16>.self)
      let a = row.loadUnaligned(as: SIMD16<UInt8>.self)
      let b = (row + stride).loadUnaligned(as: SIMD16<UInt8>.self)
      let pair = SIMD16<Int32>(
        Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]),
        Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]), Int32(w[0]), Int32(w[1]))
      let first = SIMD16<Int32>(
        truncatingIfNeeded: SIMD16<UInt8>(
          a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]))
      let second = SIMD16<Int32>(
        truncatingIfNeeded: SIMD16<UInt8>(
          a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15]))
      let p0 = first &* pair
      let p1 = second &* pair
      low &+= p0.evenHalf &+ p0.oddHalf
      high &+= p1.evenHalf &+ p1.oddHalf
      row += stride &* 2
      k &+= 2
    }
    if k < taps {
      let w = Int32(weights.loadUnaligned(fromByteOffset: k &* 2, as: Int16.self))
      let a = row.loadUnaligned(as: SIMD16<UInt8>.self)
      low &+= SIMD8<Int32>(truncatingIfNeeded: a.lowHalf) &* SIMD8(repeating: w)
      high &+= SIMD8<Int32>(truncatingIfNeeded: a.highHalf) &* SIMD8(repeating: w)
    }
    return SIMD16(lowHalf: low, highHalf: high)
  }

  /// Four bytes (one pixel) of a column pass, for the last pixels of a row.
  @inline(__always)
  private static func convolve4(
    column: UnsafeRawPointer, stride: Int, weights: UnsafeRawPointer, taps: Int
  ) -> SIMD4<Int32> {
    var acc = SIMD4<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
    var k = 0
    while k < taps {
      let w = Int32(weights.loadUnaligned(fromByteOffset: k &* 2, as: Int16.self))
      let p = (column + k &* stride).loadUnaligned(as: SIMD4<UInt8>.self)
      acc &+= SIMD4<Int32>(truncatingIfNeeded: p) &* SIMD4(repeating: w)
      k &+= 1
    }
    return acc
  }

  /// Fixed-point sums back to bytes (the accumulators start at one half, so
  /// the shift rounds), clamped to 0...255 and then to the pixel's alpha:
  /// negative lobes overshoot at edges, and a premultiplied colour above
  /// its alpha would be invalid.
  @inline(__always)
  static func clampPremultiplied(_ acc: SIMD4<Int32>) -> SIMD4<UInt8> {
    let shifted = acc &>> ResamplingWeights.precisionBits
    let bytes = SIMD4<UInt8>(
      truncatingIfNeeded: shifted.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)))
    return pointwiseMin(bytes, SIMD4(repeating: bytes[3]))
  }

  @inline(__always)
  static func clampPremultiplied(_ acc: SIMD16<Int32>) -> SIMD16<UInt8> {
    let shifted = acc &>> ResamplingWeights.precisionBits
    let bytes = SIMD16<UInt8>(
      truncatingIfNeeded: shifted.clamped(lowerBound: .zero, upperBound: SIMD16(repeating: 255)))
    // Each pixel's alpha in all four of its bytes.
    let alpha = unsafeBitCast(bytes, to: SIMD4<UInt32>.self) &>> 24
    let spread = alpha | alpha &<< 8 | alpha &<< 16 | alpha &<< 24
    return pointwiseMin(bytes, unsafeBitCast(spread, to: SIMD16<UInt8>.self))
  }
}
