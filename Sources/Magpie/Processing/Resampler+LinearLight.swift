extension Resampler {
  /// Resamples in linear light: sRGB bytes to premultiplied linear `Float`s,
  /// box pre-reduce and both kernel passes in `Float`, then back.
  static func resampleLinear(
    _ source: PixelBuffer, to size: PixelSize, kernel: ResamplingKernel, factorX: Int, factorY: Int
  ) -> PixelBuffer {
    let source = source.premultiplied()
    var width = source.width
    var height = source.height
    var values = linearValues(of: source)
    var extentX = Double(width)
    var extentY = Double(height)
    if factorX > 1 || factorY > 1 {
      (values, width, height) = boxReduceLinear(
        values, width: width, height: height, factorX: factorX, factorY: factorY)
      extentX /= Double(factorX)
      extentY /= Double(factorY)
    }
    if width != size.width || extentX != Double(size.width) {
      let weights = ResamplingWeightsCache.weights(
        inputCount: width, inputExtent: extentX, outputCount: size.width, kernel: kernel)
      values = convolveLinear(values, width: width, height: height, weights: weights, alongRows: true)
      width = size.width
    }
    if height != size.height || extentY != Double(size.height) {
      let weights = ResamplingWeightsCache.weights(
        inputCount: height, inputExtent: extentY, outputCount: size.height, kernel: kernel)
      values = convolveLinear(values, width: width, height: height, weights: weights, alongRows: false)
      height = size.height
    }
    return encodedPixels(values, width: width, height: height, opaque: source.isOpaque)
  }

  /// sRGB byte value to linear light, 0...1.
  static let linearFromSRGB: [Float] = (0..<256).map { i in
    let c = Double(i) / 255
    return Float(c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
  }

  /// Linear light quantized to 16 bits, to the nearest sRGB byte value.
  static let sRGBFromLinear: [UInt8] = (0..<65_536).map { i in
    let l = Double(i) / 65_535
    let c = l <= 0.003_130_8 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
    return UInt8(max(0, min(255, (c * 255).rounded())))
  }

  /// Premultiplied linear RGBA, four `Float`s a pixel, alpha 0...1.
  private static func linearValues(of source: PixelBuffer) -> [Float] {
    let count = source.width * source.height
    return [Float](unsafeUninitializedCapacity: count * 4) { out, initialized in
      let table = linearFromSRGB
      source.withUnsafeBytes { raw in
        RowParallelism.run(source.height, costPerRow: source.width * 8) { rows in
          for y in rows {
            let row = raw.baseAddress! + y * source.bytesPerRow
            for x in 0..<source.width {
              let p = row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
              let a = UInt32(p[3])
              var v = SIMD4<Float>.zero
              if a == 255 {
                v = SIMD4(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], 1)
              } else if a > 0 {
                // Undo the premultiplication to find the stored sRGB value.
                let s = (SIMD4<UInt32>(truncatingIfNeeded: p) &* 255 &+ a / 2) / a
                let alpha = Float(a) / 255
                v = SIMD4(
                  table[Int(min(s[0], 255))] * alpha, table[Int(min(s[1], 255))] * alpha,
                  table[Int(min(s[2], 255))] * alpha, alpha)
              }
              (out.baseAddress! + (y * source.width + x) * 4).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) {
                $0.pointee = v
              }
            }
          }
        }
      }
      initialized = count * 4
    }
  }

  private static func boxReduceLinear(
    _ values: [Float], width: Int, height: Int, factorX: Int, factorY: Int
  ) -> ([Float], Int, Int) {
    let outW = (width + factorX - 1) / factorX
    let outH = (height + factorY - 1) / factorY
    let result = [Float](unsafeUninitializedCapacity: outW * outH * 4) { out, initialized in
      values.withUnsafeBufferPointer { src in
        let s = UnsafeRawPointer(src.baseAddress!)
        let d = UnsafeMutableRawPointer(out.baseAddress!)
        RowParallelism.run(outH, costPerRow: outW * factorX * factorY) { rows in
          for oy in rows {
            let y0 = oy * factorY
            let y1 = min(y0 + factorY, height)
            for ox in 0..<outW {
              let x0 = ox * factorX
              let x1 = min(x0 + factorX, width)
              var sum = SIMD4<Float>.zero
              for y in y0..<y1 {
                for x in x0..<x1 { sum += s.loadUnaligned(fromByteOffset: (y * width + x) * 16, as: SIMD4<Float>.self) }
              }
              d.storeBytes(
                of: sum / Float((y1 - y0) * (x1 - x0)), toByteOffset: (oy * outW + ox) * 16, as: SIMD4<Float>.self)
            }
          }
        }
      }
      initialized = outW * outH * 4
    }
    return (result, outW, outH)
  }

  private static func convolveLinear(
    _ values: [Float], width: Int, height: Int, weights: ResamplingWeights, alongRows: Bool
  ) -> [Float] {
    let outW = alongRows ? weights.outputCount : width
    let outH = alongRows ? height : weights.outputCount
    let taps = weights.taps
    return [Float](unsafeUninitializedCapacity: outW * outH * 4) { out, initialized in
      values.withUnsafeBufferPointer { src in
        weights.float.withUnsafeBufferPointer { w in
          let s = UnsafeRawPointer(src.baseAddress!)
          let d = UnsafeMutableRawPointer(out.baseAddress!)
          // Neighbouring taps are one pixel apart along a row, one row apart
          // down a column.
          let step = alongRows ? 16 : width * 16
          RowParallelism.run(outH, costPerRow: outW * taps) { rows in
            for y in rows {
              for x in 0..<outW {
                let index = alongRows ? x : y
                let first = weights.starts[index]
                let origin = alongRows ? (y * width + first) * 16 : (first * width + x) * 16
                var acc = SIMD4<Float>.zero
                for k in 0..<taps {
                  acc += s.loadUnaligned(fromByteOffset: origin + k * step, as: SIMD4<Float>.self) * w[index * taps + k]
                }
                d.storeBytes(of: acc, toByteOffset: (y * outW + x) * 16, as: SIMD4<Float>.self)
              }
            }
          }
        }
      }
      initialized = outW * outH * 4
    }
  }

  /// Premultiplied linear `Float`s back to premultiplied sRGB bytes.
  private static func encodedPixels(_ values: [Float], width: Int, height: Int, opaque: Bool) -> PixelBuffer {
    let table = sRGBFromLinear
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .premultiplied) { out in
      values.withUnsafeBytes { raw in
        RowParallelism.run(height, costPerRow: width * 8) { rows in
          for y in rows {
            for x in 0..<width {
              let v = raw.baseAddress!.loadUnaligned(fromByteOffset: (y * width + x) * 16, as: SIMD4<Float>.self)
              let alpha = opaque ? 1 : min(max(v[3], 0), 1)
              var p = SIMD4<UInt8>.zero
              if alpha > 0 {
                let a = opaque ? 255 : UInt32((alpha * 255).rounded())
                for c in 0..<3 {
                  let straight = min(max(v[c] / alpha, 0), 1)
                  let s = UInt32(table[Int(straight * 65_535 + 0.5)])
                  p[c] = a == 255 ? UInt8(s) : PixelBuffer.multiplyDivide255(s, a)
                }
                p[3] = UInt8(a)
              }
              out.baseAddress!.storeBytes(of: p, toByteOffset: (y * width + x) * 4, as: SIMD4<UInt8>.self)
            }
          }
        }
      }
      return opaque
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
