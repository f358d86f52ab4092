import Foundation
import Testing

@testable import Magpie

/// The resampler against Pillow's (fixtures made by
/// Scripts/fixtures/make_processing_fixtures.py) and against a Lanczos
/// convolution computed here in `Double`.
@Suite struct ResamplingQualityTests {
  typealias S = ProcessingTestSupport

  @Test(arguments: ["door", "garden", "statue", "birds"])
  func photoDownscaleMatchesPillowsLanczos(name: String) throws {
    let source = try S.photo(name)
    let reference = try S.fixture("\(name)-128.png")
    // Magpie's default goes through a 3x box pre-reduce, as Pillow's own
    // thumbnail() would; Pillow's reference is one plain convolution.
    let fast = Resampler.resample(source, to: reference.size)
    let exact = Resampler.resample(source, to: reference.size, reducingGap: nil)
    #expect(S.psnr(fast, reference) >= 35, "\(name) with box pre-reduce: \(S.psnr(fast, reference)) dB")
    #expect(S.psnr(exact, reference) >= 45, "\(name) plain Lanczos: \(S.psnr(exact, reference)) dB")
  }

  @Test func nonIntegerDownscaleOfACropMatchesPillow() throws {
    let crop = try S.photo("birds").cropped(x: 256, y: 128, width: 256, height: 256)
    let reference = try S.fixture("birds-crop-100.png")
    let result = Resampler.resample(crop, to: PixelSize(width: 100, height: 100))
    #expect(S.psnr(result, reference) >= 40, "\(S.psnr(result, reference)) dB")
  }

  @Test(arguments: [ResamplingKernel.lanczos3, .catmullRom, .bilinear])
  func upscalingMatchesPillow(kernel: ResamplingKernel) throws {
    let crop = try S.photo("garden").cropped(x: 300, y: 200, width: 48, height: 48)
    let reference = try S.fixture("garden-up-\(kernel.rawValue).png")
    let result = Resampler.resample(crop, to: PixelSize(width: 120, height: 120), kernel: kernel)
    #expect(S.psnr(result, reference) >= 40, "\(kernel): \(S.psnr(result, reference)) dB")
  }

  @Test(arguments: [ResamplingKernel.catmullRom, .bilinear])
  func otherKernelsDownscaleLikePillow(kernel: ResamplingKernel) throws {
    let source = try S.photo("statue")
    let reference = try S.fixture("statue-\(kernel.rawValue)-96.png")
    let result = Resampler.resample(source, to: reference.size, kernel: kernel, reducingGap: nil)
    #expect(S.psnr(result, reference) >= 40, "\(kernel): \(S.psnr(result, reference)) dB")
  }

  @Test func transparentImagesResampleLikePillowsPremultipliedPath() throws {
    let source = try S.fixture("rgba-source.png")
    let reference = try S.fixture("rgba-lanczos-24.png")
    let result = Resampler.resample(source, to: reference.size, reducingGap: nil)
    #expect(S.psnr(result, reference, alpha: true) >= 35, "\(S.psnr(result, reference, alpha: true)) dB")
    #expect(S.isValidPremultiplied(result))
  }

  /// A hard black-to-white edge: the result must match a Lanczos-3
  /// convolution computed directly in `Double` (ringing as Lanczos itself
  /// rings, clamped, and no more), and pixels beyond the kernel's reach
  /// from the edge stay exactly black or white.
  @Test(arguments: [24, 150])
  func stepEdgeRingsNoMoreThanLanczosItself(outputWidth: Int) {
    let width = 64
    let step = S.make(width, 3) { x, _ in x < width / 2 ? SIMD4(0, 0, 0, 255) : SIMD4(255, 255, 255, 255) }
    let result = Resampler.resample(step, to: PixelSize(width: outputWidth, height: 3), reducingGap: nil)
    let scale = Double(width) / Double(outputWidth)
    let filterScale = max(scale, 1)
    let support = 3 * filterScale
    for x in 0..<outputWidth {
      let center = (Double(x) + 0.5) * scale
      var sum = 0.0
      var total = 0.0
      for i in 0..<width {
        let t = (Double(i) + 0.5 - center) / filterScale
        guard abs(t) < 3 else { continue }
        let w = lanczos3(t)
        sum += w * (i < width / 2 ? 0 : 255)
        total += w
      }
      let expected = min(max((sum / total).rounded(), 0), 255)
      let got = Double(result[x, 1][0])
      #expect(abs(got - expected) <= 1, "x \(x): \(got) vs \(expected)")
      let edge = Double(width / 2)
      if center + support < edge { #expect(got == 0, "x \(x) is beyond the kernel from the edge") }
      if center - support > edge { #expect(got == 255, "x \(x) is beyond the kernel from the edge") }
    }
  }

  /// Opaque white next to full transparency: resampling premultiplied
  /// pixels keeps every partly covered pixel white (no dark fringe).
  @Test func edgesAgainstTransparencyShowNoDarkHalo() {
    let source = S.make(40, 40) { x, y in
      x < 20 && y < 25 ? SIMD4(255, 255, 255, 255) : SIMD4(0, 0, 0, 0)
    }
    for size in [PixelSize(width: 15, height: 15), PixelSize(width: 97, height: 61)] {
      let result = Resampler.resample(source, to: size)
      #expect(S.isValidPremultiplied(result))
      let straight = result.straightRGBA()
      for i in stride(from: 0, to: straight.count, by: 4) where straight[i + 3] >= 16 {
        #expect(straight[i] >= 240 && straight[i + 1] >= 240 && straight[i + 2] >= 240, "pixel \(i / 4)")
      }
    }
  }

  @Test(arguments: [ResamplingKernel.lanczos3, .catmullRom, .bilinear])
  func flatImagesStayExactlyFlat(kernel: ResamplingKernel) {
    let color = SIMD4<UInt8>(128, 64, 32, 128)
    let source = S.solid(37, 23, color)
    for size in [PixelSize(width: 5, height: 3), PixelSize(width: 36, height: 24), PixelSize(width: 111, height: 70)] {
      for space in ResamplingColorSpace.allCases {
        let result = Resampler.resample(source, to: size, kernel: kernel, colorSpace: space)
        #expect(result.size == size)
        #expect(result == S.solid(size.width, size.height, color), "\(kernel) \(space) \(size)")
      }
    }
  }

  @Test func resultsAreValidPremultipliedPixels() {
    var state: UInt32 = 12_345
    let noise = S.make(50, 50) { _, _ in
      state = state &* 1_664_525 &+ 1_013_904_223
      let a = UInt8(truncatingIfNeeded: state >> 24)
      let c = SIMD4<UInt32>(state & 0xFF, (state >> 8) & 0xFF, (state >> 16) & 0xFF, 0) &* UInt32(a) / 255
      return SIMD4(UInt8(c[0]), UInt8(c[1]), UInt8(c[2]), a)
    }
    for kernel in ResamplingKernel.allCases {
      for size in [PixelSize(width: 17, height: 9), PixelSize(width: 120, height: 77)] {
        #expect(S.isValidPremultiplied(Resampler.resample(noise, to: size, kernel: kernel)))
        #expect(S.isValidPremultiplied(Resampler.resample(noise, to: size, kernel: kernel, colorSpace: .linear)))
      }
    }
  }

  /// A one-pixel black-and-white checkerboard halved: averaged in sRGB it
  /// is mid-grey 128; averaged as light it is half as bright as white,
  /// which sRGB encodes as 188.
  @Test func linearLightAveragesLightNotCodeValues() {
    let board = S.make(64, 64) { x, y in (x + y) % 2 == 0 ? SIMD4(0, 0, 0, 255) : SIMD4(255, 255, 255, 255) }
    let half = PixelSize(width: 32, height: 32)
    let gamma = Resampler.resample(board, to: half, kernel: .bilinear)
    let linear = Resampler.resample(board, to: half, kernel: .bilinear, colorSpace: .linear)
    for (x, y) in [(8, 8), (16, 20), (30, 3)] {
      #expect(abs(Int(gamma[x, y][0]) - 128) <= 1, "\(gamma[x, y])")
      #expect(abs(Int(linear[x, y][0]) - 188) <= 1, "\(linear[x, y])")
    }
  }

  @Test func linearLightKeepsPhotosClose() throws {
    let source = try S.photo("door")
    let size = PixelSize(width: 192, height: 128)
    let gamma = Resampler.resample(source, to: size)
    let linear = Resampler.resample(source, to: size, colorSpace: .linear)
    // Close but not the same: smooth photos differ only at contrasty detail.
    let psnr = S.psnr(gamma, linear)
    #expect(psnr > 30 && psnr < 70, "\(psnr) dB")
  }

  @Test func boxReduceAveragesWholeAndPartialBlocks() {
    let source = S.make(5, 3) { x, y in SIMD4(UInt8(x * 10 + y), UInt8(x * 10 + y), 0, 255) }
    let reduced = Resampler.boxReduce(source, factorX: 2, factorY: 2)
    #expect(reduced.size == PixelSize(width: 3, height: 2))
    // (0,0): mean of 0, 1, 10, 11 = 5.5 -> 6; (2,0): column 4 alone, rows 0-1: 40, 41 -> 40.5 -> 41;
    // (0,1): the last row alone, 2 and 12 -> 7; (2,1): the corner pixel alone: 42.
    #expect(reduced[0, 0][0] == 6)
    #expect(reduced[1, 0][0] == 26)
    #expect(reduced[2, 0][0] == 41)
    #expect(reduced[0, 1][0] == 7)
    #expect(reduced[2, 1][0] == 42)
    // The two-by-two fast path and the general one agree on a wide image.
    let wide = S.make(67, 4) { x, y in SIMD4(UInt8(x * 3 % 256), UInt8(y * 60), UInt8((x * y) % 256), 255) }
    let fast = Resampler.boxReduce(wide, factorX: 2, factorY: 2)
    for x in 0..<fast.width {
      for y in 0..<fast.height {
        var sum = SIMD4<Int>.zero
        var n = 0
        for dy in 0..<2 where y * 2 + dy < 4 {
          for dx in 0..<2 where x * 2 + dx < 67 {
            sum &+= SIMD4<Int>(truncatingIfNeeded: wide[x * 2 + dx, y * 2 + dy])
            n += 1
          }
        }
        let mean = (sum &+ n / 2) / n
        #expect(SIMD4<Int>(truncatingIfNeeded: fast[x, y]) == mean, "(\(x), \(y))")
      }
    }
  }

  @Test func paddedRowsAreRead() {
    // Two pixels a row, three pixels of stride.
    let bytes: [UInt8] = [
      10, 10, 10, 255, 20, 20, 20, 255, 9, 9, 9, 9,
      30, 30, 30, 255, 40, 40, 40, 255, 9, 9, 9, 9,
    ]
    let padded = PixelBuffer(width: 2, height: 2, bytesPerRow: 12, premultipliedRGBA: bytes, isOpaque: true)
    let one = Resampler.resample(padded, to: PixelSize(width: 1, height: 1), kernel: .bilinear)
    #expect(one[0, 0] == SIMD4(25, 25, 25, 255))
    #expect(Resampler.boxReduce(padded, factorX: 2, factorY: 2)[0, 0] == SIMD4(25, 25, 25, 255))
  }

  private func lanczos3(_ x: Double) -> Double {
    if x == 0 { return 1 }
    let px = Double.pi * x
    return 3 * sin(px) * sin(px / 3) / (px * px)
  }
}
