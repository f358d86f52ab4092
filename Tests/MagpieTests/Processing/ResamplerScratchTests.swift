import Foundation
import Testing

@testable import Magpie

/// The resample over pixels in scratch memory (the turned-JPEG thumbnail
/// path) makes exactly the pixels of the one over a ``PixelBuffer``, in
/// every combination of passes and either order.
@Suite struct ResamplerScratchTests {
  private static let cases: [(PixelSize, PixelSize, Double, Double)] = [
    (PixelSize(width: 300, height: 200), PixelSize(width: 256, height: 171), 300, 200),  // both, rows first
    (PixelSize(width: 90, height: 600), PixelSize(width: 60, height: 100), 90, 600),  // both, columns first
    (PixelSize(width: 120, height: 80), PixelSize(width: 50, height: 80), 120, 80),  // rows only
    (PixelSize(width: 120, height: 80), PixelSize(width: 120, height: 33), 120, 80),  // columns only
    (PixelSize(width: 64, height: 48), PixelSize(width: 64, height: 48), 63.5, 47.25),  // partial blocks
    (PixelSize(width: 40, height: 30), PixelSize(width: 40, height: 30), 40, 30),  // nothing to do
  ]

  @Test(arguments: 0..<cases.count)
  func scratchPassesMatchThePixelBufferPasses(_ index: Int) {
    let (size, target, extentX, extentY) = Self.cases[index]
    let image = ProcessingTestSupport.make(size.width, size.height) { x, y in
      SIMD4(UInt8((x * 7 + y * 3) & 255), UInt8((x * y) & 255), UInt8((x ^ y) & 255), 255)
    }
    let expected = Resampler.convolve(image, extentX: extentX, extentY: extentY, to: target, kernel: .lanczos3)
    let scratch = image.withUnsafeBytes { raw in
      Resampler.convolveOpaque(
        raw.baseAddress!, size: size, extentX: extentX, extentY: extentY, to: target, kernel: .lanczos3)
    }
    #expect(scratch == expected)
    // The first two cases take the two orders.
    let rowsFirst = Resampler.runsRowsFirst(size, extentX: extentX, extentY: extentY, to: target)
    if index < 2 { #expect(rowsFirst == (index == 0)) }
  }
}
