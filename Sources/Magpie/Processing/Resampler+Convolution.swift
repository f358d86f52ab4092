import CMagpieCodecs

extension Resampler {
  /// Resamples each row of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  ///
  /// Each source row is first spread into a line of `Int16` pairs, entry
  /// `k` holding pixels `k` and `k + 1` channel by channel (`r_k, r_k+1,
  /// g_k, g_k+1, ...`). Against weight pairs laid out the same way, one
  /// `Int16` multiply-and-add-adjacent (SSE2's `pmaddwd`, which LLVM emits
  /// for this shape) then does two taps of all four channels: half the
  /// instructions of one tap at a time.
  ///
  /// Straight pixels are premultiplied a row at a time as the pass reads
  /// them, in cache, instead of in a whole-image pass of their own.
  static func convolveRows(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let premultiplies = source.alphaRepresentation == .straight && !source.isOpaque
    let width = weights.outputCount
    let height = source.height
    let opaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .premultiplied) { out in
      source.withUnsafeBytes { raw in
        weights.pairs.withUnsafeBytes { pairs in
          weights.starts.withUnsafeBufferPointer { starts in
            let pass = RowPass(
              source: raw.baseAddress!, sourceWidth: source.width, stride: source.bytesPerRow,
              destination: out.baseAddress!, width: width, pairCount: weights.pairCount,
              starts: starts.baseAddress!, weights: pairs.baseAddress!, premultiplies: premultiplies)
            RowParallelism.run(height, costPerRow: width * weights.taps + source.width) { rows in
              // Two copies of the loop: the opaque one skips the clamp to
              // alpha (alpha is 255 throughout).
              if opaque { pass.run(rows, opaque: true) } else { pass.run(rows, opaque: false) }
            }
          }
        }
      }
      return opaque
    }
  }

  /// Resamples each column of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  static func convolveColumns(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let source = source.premultiplied()
    let width = source.width
    let height = weights.outputCount
    let opaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .premultiplied) { out in
      source.withUnsafeBytes { raw in
        weights.fixed.withUnsafeBytes { fixed in
          weights.starts.withUnsafeBufferPointer { starts in
            let pass = ColumnPass(
              source: raw.baseAddress!, stride: source.bytesPerRow, destination: out.baseAddress!,
              rowBytes: width * 4, taps: weights.taps, starts: starts.baseAddress!, weights: fixed.baseAddress!)
            RowParallelism.run(height, costPerRow: width * weights.taps) { rows in
              if opaque { pass.run(rows, opaque: true) } else { pass.run(rows, opaque: false) }
            }
          }
        }
      }
      return opaque
    }
  }

  /// The row pass over a range of rows; pointers stay valid while it runs.
  struct RowPass {
    let source: UnsafeRawPointer
    let sourceWidth: Int
    let stride: Int
    let destination: UnsafeMutableRawPointer
    let width: Int
    let pairCount: Int
    let starts: UnsafePointer<Int>
    let weights: UnsafeRawPointer
    /// Whether source rows are straight and premultiplied on the way in.
    var premultiplies = false

    @inline(__always)
    func run(_ rows: Range<Int>, opaque: Bool) {
      let line = UnsafeMutableRawPointer.allocate(byteCount: sourceWidth &* 16, alignment: 16)
      defer { line.deallocate() }
      let scratch = premultiplies ? UnsafeMutableRawPointer.allocate(byteCount: sourceWidth &* 4, alignment: 16) : nil
      defer { scratch?.deallocate() }
      for y in rows {
        var row = source + y &* stride
        if let scratch {
          mp_premultiply_copy(
            row.assumingMemoryBound(to: UInt8.self), 0, scratch.assumingMemoryBound(to: UInt8.self), 0, sourceWidth, 1)
          row = UnsafeRawPointer(scratch)
        }
        spreadPairs(row, into: line)
        let outRow = destination + y &* width &* 4
        var x = 0
        while x < width {
          let pixels = line + starts[x] &* 16
          let pairWeights = weights + x &* pairCount &* 16
          var acc = SIMD4<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
          var j = 0
          while j < pairCount {
            let a = pixels.loadUnaligned(fromByteOffset: j &* 32, as: SIMD8<Int16>.self)
            let b = pairWeights.loadUnaligned(fromByteOffset: j &* 16, as: SIMD8<Int16>.self)
            let products = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
            acc &+= products.evenHalf &+ products.oddHalf
            j &+= 1
          }
          let bytes = opaque ? Resampler.clampOpaqueByPacking(acc) : Resampler.clampPremultiplied(acc)
          outRow.storeBytes(of: bytes, toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
          x &+= 1
        }
      }
    }

    /// Writes entry `k` = pixels `k` and `k + 1` interleaved by channel as
    /// `Int16`s, for every `k` of the row (the last entry pairs the last
    /// pixel with zeros).
    @inline(__always)
    private func spreadPairs(_ row: UnsafeRawPointer, into line: UnsafeMutableRawPointer) {
      var k = 0
      // Four entries a step: pixels k...k+3 interleaved byte by byte with
      // pixels k+1...k+4 are entries k...k+3 (two unpack instructions).
      while k &+ 5 <= sourceWidth {
        let a = row.loadUnaligned(fromByteOffset: k &* 4, as: SIMD16<UInt8>.self)
        let b = row.loadUnaligned(fromByteOffset: k &* 4 &+ 4, as: SIMD16<UInt8>.self)
        let low = SIMD16<UInt8>(
          a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        let high = SIMD16<UInt8>(
          a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
        // Widened eight bytes at a time: the SIMD16 conversion is an
        // outlined generic call, the SIMD8 one a single unpack.
        let out = line + k &* 16
        out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: low.lowHalf), as: SIMD8<Int16>.self)
        out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: low.highHalf), toByteOffset: 16, as: SIMD8<Int16>.self)
        out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: high.lowHalf), toByteOffset: 32, as: SIMD8<Int16>.self)
        out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: high.highHalf), toByteOffset: 48, as: SIMD8<Int16>.self)
        k &+= 4
      }
      while k &+ 1 < sourceWidth {
        let p = row.loadUnaligned(fromByteOffset: k &* 4, as: SIMD8<UInt8>.self)
        let mixed = SIMD8<UInt8>(p[0], p[4], p[1], p[5], p[2], p[6], p[3], p[7])
        line.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: mixed), toByteOffset: k &* 16, as: SIMD8<Int16>.self)
        k &+= 1
      }
      let p = row.loadUnaligned(fromByteOffset: (sourceWidth &- 1) &* 4, as: SIMD4<UInt8>.self)
      let last = SIMD8<Int16>(Int16(p[0]), 0, Int16(p[1]), 0, Int16(p[2]), 0, Int16(p[3]), 0)
      line.storeBytes(of: last, toByteOffset: (sourceWidth &- 1) &* 16, as: SIMD8<Int16>.self)
    }
  }

  /// The column pass over a range of output rows.
  private struct ColumnPass {
    let source: UnsafeRawPointer
    let stride: Int
    let destination: UnsafeMutableRawPointer
    let rowBytes: Int
    let taps: Int
    let starts: UnsafePointer<Int>
    let weights: UnsafeRawPointer

    @inline(__always)
    func run(_ rows: Range<Int>, opaque: Bool) {
      for y in rows {
        let column = source + starts[y] &* stride
        let rowWeights = weights + y &* taps &* 2
        let outRow = destination + y &* rowBytes
        var i = 0
        // Four pixels at a time, two source rows per step.
        while i &+ 16 <= rowBytes {
          let acc = convolve16(column + i, rowWeights)
          let bytes = opaque ? Resampler.clampOpaque(acc) : Resampler.clampPremultiplied(acc)
          outRow.storeBytes(of: bytes, toByteOffset: i, as: SIMD16<UInt8>.self)
          i &+= 16
        }
        while i < rowBytes {
          let acc = convolve4(column + i, rowWeights)
          let bytes = opaque ? Resampler.clampOpaque(acc) : Resampler.clampPremultiplied(acc)
          outRow.storeBytes(of: bytes, toByteOffset: i, as: SIMD4<UInt8>.self)
          i &+= 4
        }
      }
    }

    /// Sixteen bytes (four pixels). Two source rows go in per step, their
    /// bytes interleaved so each `Int32` lane sums a pair of products, the
    /// shape of `pmaddwd`.
    @inline(__always)
    private func convolve16(_ column: UnsafeRawPointer, _ weights: UnsafeRawPointer) -> SIMD16<Int32> {
      var low = SIMD8<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
      var high = low
      var k = 0
      var row = column
      while k &+ 2 <= taps {
        let w = weights.loadUnaligned(fromByteOffset: k &* 2, as: SIMD2<Int16>.self)
        let a = row.loadUnaligned(as: SIMD16<UInt8>.self)
        let b = (row + stride).loadUnaligned(as: SIMD16<UInt8>.self)
        let w0 = Int32(w[0])
        let w1 = Int32(w[1])
        let pair = SIMD16<Int32>(w0, w1, w0, w1, w0, w1, w0, w1, w0, w1, w0, w1, w0, w1, w0, w1)
        let first = SIMD16<UInt8>(
          a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
        let second = SIMD16<UInt8>(
          a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
        let p0 = SIMD16<Int32>(truncatingIfNeeded: first) &* pair
        let p1 = SIMD16<Int32>(truncatingIfNeeded: second) &* pair
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

    /// Four bytes (one pixel), for the last pixels of a row.
    @inline(__always)
    private func convolve4(_ column: UnsafeRawPointer, _ weights: UnsafeRawPointer) -> SIMD4<Int32> {
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
  }

  /// Fixed-point sums back to bytes (the accumulators start at one half, so
  /// the shift rounds), clamped to 0...255 and then to the pixel's alpha:
  /// negative lobes overshoot at edges, and a premultiplied colour above
  /// its alpha would be invalid. Written with shifts and masks only: the
  /// standard library's generic `min`/`max`/`clamped` are not always
  /// inlined, and an outlined call per pixel costs more than the pixel.
  @inline(__always)
  static func clampPremultiplied(_ acc: SIMD4<Int32>) -> SIMD4<UInt8> {
    var v = positivePart(acc &>> ResamplingWeights.precisionBits)
    v &-= positivePart(v &- 255)
    v &-= positivePart(v &- SIMD4(repeating: v[3]))
    return SIMD4<UInt8>(truncatingIfNeeded: v)
  }

  /// Four pixels at once, as four single pixels.
  @inline(__always)
  static func clampPremultiplied(_ acc: SIMD16<Int32>) -> SIMD16<UInt8> {
    let a = clampPremultiplied(acc.lowHalf.lowHalf)
    let b = clampPremultiplied(acc.lowHalf.highHalf)
    let c = clampPremultiplied(acc.highHalf.lowHalf)
    let d = clampPremultiplied(acc.highHalf.highHalf)
    return SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: b), highHalf: SIMD8(lowHalf: c, highHalf: d))
  }

  /// Fixed-point sums of opaque pixels back to bytes, rounded and clamped
  /// to 0...255 (alpha is 255, so nothing can exceed it).
  @inline(__always)
  static func clampOpaque(_ acc: SIMD4<Int32>) -> SIMD4<UInt8> {
    var v = positivePart(acc &>> ResamplingWeights.precisionBits)
    v &-= positivePart(v &- 255)
    return SIMD4<UInt8>(truncatingIfNeeded: v)
  }

  /// ``clampOpaque(_:)`` for the row pass, where the standard library's
  /// `clamped` is inlined and LLVM makes the clamp-and-narrow two
  /// saturating packs (in the bigger column loop it is not inlined).
  @inline(__always)
  static func clampOpaqueByPacking(_ acc: SIMD4<Int32>) -> SIMD4<UInt8> {
    let v = (acc &>> ResamplingWeights.precisionBits).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
    return SIMD4<UInt8>(truncatingIfNeeded: v)
  }

  /// Four opaque pixels at once.
  @inline(__always)
  static func clampOpaque(_ acc: SIMD16<Int32>) -> SIMD16<UInt8> {
    let a = clampOpaque(acc.lowHalf.lowHalf)
    let b = clampOpaque(acc.lowHalf.highHalf)
    let c = clampOpaque(acc.highHalf.lowHalf)
    let d = clampOpaque(acc.highHalf.highHalf)
    return SIMD16(lowHalf: SIMD8(lowHalf: a, highHalf: b), highHalf: SIMD8(lowHalf: c, highHalf: d))
  }

  /// `max(v, 0)` lane by lane.
  @inline(__always)
  private static func positivePart(_ v: SIMD4<Int32>) -> SIMD4<Int32> { v & ~(v &>> 31) }
}
