import Dispatch

/// Resizes premultiplied RGBA8 pixels with a separable convolution.
///
/// Big reductions go the libvips/Pillow way: an integer box pre-reduce while
/// the image is still more than `reducingGap` times the target, then the
/// kernel over what is left, so the cost tracks the output size, not the
/// input size. Work is done in gamma-encoded sRGB, like Pillow and libvips:
/// it is what photo thumbnails are compared against and needs no lookup
/// tables.
public enum Resampler {
  /// `source` resized to exactly `size` with `kernel`.
  ///
  /// - Parameter reducingGap: when the image is more than this many times the
  ///   target along an axis, first average whole blocks of pixels down to
  ///   between `reducingGap` and `2 * reducingGap` times the target. `nil`
  ///   convolves the full image (slower, marginally sharper).
  public static func resample(
    _ source: PixelBuffer, to size: PixelSize, kernel: ResamplingKernel = .lanczos3, reducingGap: Double? = 2
  ) -> PixelBuffer {
    precondition(size.width > 0 && size.height > 0, "resampling to an empty size")
    if source.size == size { return source }
    var image = source
    if let gap = reducingGap, gap >= 1 {
      let factorX = max(1, Int(Double(image.width) / (Double(size.width) * gap)))
      let factorY = max(1, Int(Double(image.height) / (Double(size.height) * gap)))
      if factorX > 1 || factorY > 1 {
        image = boxReduce(image, factorX: factorX, factorY: factorY)
      }
    }
    if image.width != size.width {
      image = resampleRows(image, width: size.width, kernel: kernel)
    }
    if image.height != size.height {
      image = resampleColumns(image, height: size.height, kernel: kernel)
    }
    return image
  }

  /// The mean of each `factorX` × `factorY` block (partial blocks at the
  /// right and bottom edges average what they have).
  public static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int) -> PixelBuffer {
    precondition(factorX >= 1 && factorY >= 1)
    let outW = (source.width + factorX - 1) / factorX
    let outH = (source.height + factorY - 1) / factorY
    let opaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: outW, height: outH) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        let stride = source.bytesPerRow
        parallelRows(outH, costPerRow: outW * factorX * factorY) { rows in
          var sums = [SIMD4<UInt32>](repeating: .zero, count: outW)
          for oy in rows {
            let y0 = oy * factorY
            let y1 = min(y0 + factorY, source.height)
            for i in 0..<outW { sums[i] = .zero }
            for y in y0..<y1 {
              let row = src + y * stride
              var x = 0
              for ox in 0..<outW {
                let end = min(x + factorX, source.width)
                var acc = SIMD4<UInt32>.zero
                while x < end {
                  acc &+= SIMD4<UInt32>(
                    truncatingIfNeeded: row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
                  x += 1
                }
                sums[ox] &+= acc
              }
            }
            let outRow = dst + oy * outW * 4
            let blockRows = UInt32(y1 - y0)
            for ox in 0..<outW {
              let blockCols = UInt32(min(factorX, source.width - ox * factorX))
              let count = blockRows * blockCols
              let mean = (sums[ox] &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
              outRow.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: mean), toByteOffset: ox * 4, as: SIMD4<UInt8>.self)
            }
          }
        }
      }
      return opaque
    }
  }

  /// Resamples each row to `width` pixels.
  static func resampleRows(_ source: PixelBuffer, width: Int, kernel: ResamplingKernel) -> PixelBuffer {
    let weights = ResamplingWeights(inputCount: source.width, outputCount: width, kernel: kernel)
    let height = source.height
    let opaque = source.isOpaque
    var result = PixelBuffer(uninitializedWidth: width, height: height) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        let stride = source.bytesPerRow
        weights.weights.withUnsafeBufferPointer { w in
          weights.starts.withUnsafeBufferPointer { starts in
            weights.counts.withUnsafeBufferPointer { counts in
              parallelRows(height, costPerRow: width * weights.taps) { rows in
                for y in rows {
                  let row = src + y * stride
                  let outRow = dst + y * width * 4
                  for x in 0..<width {
                    let pixels = row + starts[x] * 4
                    let base = x * weights.taps
                    var acc = SIMD4<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
                    for k in 0..<counts[x] {
                      let p = SIMD4<Int32>(
                        truncatingIfNeeded: pixels.loadUnaligned(fromByteOffset: k * 4, as: SIMD4<UInt8>.self))
                      acc &+= p &* w[base + k]
                    }
                    outRow.storeBytes(of: clampToByte(acc), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                  }
                }
              }
            }
          }
        }
      }
      return opaque
    }
    if !opaque { clampColorToAlpha(&result) }
    return result
  }

  /// Resamples each column to `height` pixels.
  static func resampleColumns(_ source: PixelBuffer, height: Int, kernel: ResamplingKernel) -> PixelBuffer {
    let weights = ResamplingWeights(inputCount: source.height, outputCount: height, kernel: kernel)
    let width = source.width
    let rowBytes = width * 4
    let opaque = source.isOpaque
    var result = PixelBuffer(uninitializedWidth: width, height: height) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        let stride = source.bytesPerRow
        weights.weights.withUnsafeBufferPointer { w in
          parallelRows(height, costPerRow: rowBytes * weights.taps / 4) { rows in
            for y in rows {
              let first = weights.starts[y]
              let count = weights.counts[y]
              let base = y * weights.taps
              let outRow = dst + y * rowBytes
              var i = 0
              // Sixteen bytes (four pixels) at a time, every tap in registers.
              while i + 16 <= rowBytes {
                var acc = SIMD16<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
                for k in 0..<count {
                  let bytes = (src + (first + k) * stride).loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                  acc &+= SIMD16<Int32>(truncatingIfNeeded: bytes) &* w[base + k]
                }
                outRow.storeBytes(of: clampToByte(acc), toByteOffset: i, as: SIMD16<UInt8>.self)
                i += 16
              }
              while i < rowBytes {
                var acc = SIMD4<Int32>(repeating: 1 << (ResamplingWeights.precisionBits - 1))
                for k in 0..<count {
                  let bytes = (src + (first + k) * stride).loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
                  acc &+= SIMD4<Int32>(truncatingIfNeeded: bytes) &* w[base + k]
                }
                outRow.storeBytes(of: clampToByte(acc), toByteOffset: i, as: SIMD4<UInt8>.self)
                i += 4
              }
            }
          }
        }
      }
      return opaque
    }
    if !opaque { clampColorToAlpha(&result) }
    return result
  }

  /// Fixed-point sums back to bytes, rounded (the accumulator starts at one
  /// half) and clamped, since negative lobes overshoot at edges.
  @inline(__always)
  private static func clampToByte(_ acc: SIMD4<Int32>) -> SIMD4<UInt8> {
    let shifted = acc &>> ResamplingWeights.precisionBits
    return SIMD4<UInt8>(truncatingIfNeeded: shifted.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)))
  }

  @inline(__always)
  private static func clampToByte(_ acc: SIMD16<Int32>) -> SIMD16<UInt8> {
    let shifted = acc &>> ResamplingWeights.precisionBits
    return SIMD16<UInt8>(truncatingIfNeeded: shifted.clamped(lowerBound: .zero, upperBound: SIMD16(repeating: 255)))
  }

  /// Keeps premultiplied pixels valid after overshoot: no channel above alpha.
  private static func clampColorToAlpha(_ buffer: inout PixelBuffer) {
    buffer.withUnsafeMutableBytes { raw in
      let p = raw.bindMemory(to: SIMD4<UInt8>.self)
      for i in p.indices {
        let px = p[i]
        let a = px[3]
        if px[0] > a || px[1] > a || px[2] > a {
          p[i] = SIMD4(min(px[0], a), min(px[1], a), min(px[2], a), a)
        }
      }
    }
  }

  /// Runs `body` over `count` rows, split across cores when the work is big
  /// enough to pay for the threads.
  static func parallelRows(_ count: Int, costPerRow: Int, _ body: (Range<Int>) -> Void) {
    let cores = activeProcessorCount
    let total = count * max(costPerRow, 1)
    let chunks = min(cores * 4, count, max(1, total / 250_000))
    if chunks <= 1 {
      body(0..<count)
      return
    }
    withoutActuallyEscaping(body) { body in
      // Each chunk touches only its own rows, and concurrentPerform returns
      // after the last one: sharing the closure across threads is safe.
      let shared = UncheckedSendable(body)
      DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
        let start = count * chunk / chunks
        let end = count * (chunk + 1) / chunks
        shared.value(start..<end)
      }
    }
  }

  private static let activeProcessorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
