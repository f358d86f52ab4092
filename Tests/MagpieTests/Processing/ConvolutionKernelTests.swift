import CMagpieCodecs
import Testing

@testable import Magpie

/// The 8-bit kernel passes (`magpie_resample.c`) against the fixed-point
/// sums written out one tap at a time here, on both the SSE2 and the AVX2
/// loops: odd widths and tap counts reach every tail of the vector loops.
@Suite(.serialized) struct ConvolutionKernelTests {
  /// Premultiplied pixels of detailed noise; alpha 255 when `opaque`.
  private func noise(_ width: Int, _ height: Int, opaque: Bool, seed: UInt64) -> PixelBuffer {
    var state = seed
    let image = ProcessingTestSupport.make(width, height) { _, _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let bits = state >> 24
      let alpha = opaque ? 255 : Int(bits & 0xFF)
      let channel = { (shift: UInt64) in UInt8(Int((bits >> shift) & 0xFF) * alpha / 255) }
      return SIMD4(channel(8), channel(16), channel(24), UInt8(alpha))
    }
    var premultiplied = image
    premultiplied.alphaRepresentation = .premultiplied
    premultiplied.isOpaque = opaque
    return premultiplied
  }

  /// One output byte from `taps` products: rounded, clamped to 0...255 and,
  /// for a colour channel of a translucent image, to the pixel's alpha.
  private func settle(_ sums: [Int32]) -> [UInt8] {
    let clamped = sums.map { UInt8(min(max(Int($0 >> ResamplingWeights.precisionBits), 0), 255)) }
    return [min(clamped[0], clamped[3]), min(clamped[1], clamped[3]), min(clamped[2], clamped[3]), clamped[3]]
  }

  /// One output pixel written out tap by tap: `pixel(k)` is tap k's source
  /// pixel and `weight(k)` its fixed-point weight.
  private func byHand(
    taps: Int, opaque: Bool, pixel: (Int) -> SIMD4<UInt8>, weight: (Int) -> Int16
  ) -> [UInt8] {
    var sums = [Int32](repeating: 1 << 13, count: 4)
    for k in 0..<taps {
      let p = pixel(k)
      for c in 0..<4 { sums[c] += Int32(p[c]) * Int32(weight(k)) }
    }
    return opaque ? sums.map { UInt8(min(max(Int($0 >> 14), 0), 255)) } : settle(sums)
  }

  /// The row pass written out tap by tap.
  private func rowsByHand(_ source: PixelBuffer, _ weights: ResamplingWeights) -> [UInt8] {
    (0..<source.height).flatMap { y in
      (0..<weights.outputCount).flatMap { x in
        byHand(taps: weights.taps, opaque: source.isOpaque) {
          source[weights.starts[x] + $0, y]
        } weight: {
          weights.fixed[x * weights.taps + $0]
        }
      }
    }
  }

  /// The column pass written out tap by tap.
  private func columnsByHand(_ source: PixelBuffer, _ weights: ResamplingWeights) -> [UInt8] {
    (0..<weights.outputCount).flatMap { y in
      (0..<source.width).flatMap { x in
        byHand(taps: weights.taps, opaque: source.isOpaque) {
          source[x, weights.starts[y] + $0]
        } weight: {
          weights.fixed[y * weights.taps + $0]
        }
      }
    }
  }

  /// How many bytes differ (every byte when the lengths do).
  private func differences(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : max(a.count, b.count)
  }

  @Test(arguments: [true, false])
  func bothPassesMatchTheSumsTapByTap(avx2: Bool) {
    let previous = mp_resample_select_avx2(avx2 ? 1 : 0)
    defer { _ = mp_resample_select_avx2(previous) }
    // (source, output) pairs: shrinking and enlarging, odd and even taps,
    // widths that leave every remainder of 8, 4 and 2 pixels.
    let sizes = [(37, 11), (301, 256), (64, 64 - 1), (9, 20), (250, 3), (17, 16)]
    for (index, (from, to)) in sizes.enumerated() {
      for opaque in [true, false] {
        let image = noise(from, 13, opaque: opaque, seed: UInt64(index * 2 + (opaque ? 1 : 0)))
        for kernel in [ResamplingKernel.lanczos3, .catmullRom, .bilinear] {
          let across = ResamplingWeights(inputCount: from, outputCount: to, kernel: kernel)
          let rows = Resampler.convolve(
            image, extentX: Double(from), extentY: 13, to: PixelSize(width: to, height: 13), kernel: kernel)
          #expect(differences(rows.bytes, rowsByHand(image, across)) == 0)
          let tall = noise(11 + index % 3, from, opaque: opaque, seed: UInt64(index))
          let down = ResamplingWeights(inputCount: from, outputCount: to, kernel: kernel)
          let columns = Resampler.convolve(
            tall, extentX: Double(tall.width), extentY: Double(from), to: PixelSize(width: tall.width, height: to),
            kernel: kernel)
          #expect(differences(columns.bytes, columnsByHand(tall, down)) == 0)
        }
      }
    }
  }
}
