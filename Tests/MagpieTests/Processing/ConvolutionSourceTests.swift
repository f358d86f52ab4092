import Foundation
import Testing

@testable import Magpie

/// The two-pass convolution (the image between its passes in scratch
/// memory) makes exactly the pixels of its single passes run one after the
/// other, each of which ``ConvolutionKernelTests`` checks tap by tap, for
/// every kind of source it reads: opaque, premultiplied, straight (which
/// the first pass premultiplies as it reads) and rows with padding.
@Suite struct ConvolutionSourceTests {
  private static let cases: [(PixelSize, PixelSize, Double, Double)] = [
    (PixelSize(width: 300, height: 200), PixelSize(width: 256, height: 171), 300, 200),  // both, rows first
    (PixelSize(width: 90, height: 600), PixelSize(width: 60, height: 100), 90, 600),  // both, columns first
    (PixelSize(width: 120, height: 80), PixelSize(width: 50, height: 80), 120, 80),  // rows only
    (PixelSize(width: 120, height: 80), PixelSize(width: 120, height: 33), 120, 80),  // columns only
    (PixelSize(width: 64, height: 48), PixelSize(width: 64, height: 48), 63.5, 47.25),  // partial blocks
    (PixelSize(width: 40, height: 30), PixelSize(width: 40, height: 30), 40, 30),  // nothing to do
  ]

  /// The kinds of source, each showing the same premultiplied pixels.
  enum Source: CaseIterable {
    case opaque, premultiplied, straight, padded
  }

  /// Straight pixels, translucent unless `opaque`.
  private func straight(_ size: PixelSize, opaque: Bool) -> PixelBuffer {
    let bytes = (0..<size.height).flatMap { y in
      (0..<size.width).flatMap { x -> [UInt8] in
        let alpha = opaque ? 255 : UInt8((x * 5 + y * 11) % 256)
        return [UInt8((x * 7 + y * 3) & 255), UInt8((x * y) & 255), UInt8((x ^ y) & 255), alpha]
      }
    }
    return PixelBuffer(width: size.width, height: size.height, straightRGBA: bytes)
  }

  /// `kind` of source for `size`, and the packed premultiplied pixels it shows.
  private func source(_ kind: Source, _ size: PixelSize) -> (PixelBuffer, reference: PixelBuffer) {
    let translucent = straight(size, opaque: false).premultiplied()
    switch kind {
    case .opaque:
      let opaque = straight(size, opaque: true)
      return (opaque, opaque.premultiplied())
    case .premultiplied:
      return (translucent, translucent)
    case .straight:
      return (straight(size, opaque: false), translucent)
    case .padded:
      let stride = size.width * PixelBuffer.bytesPerPixel + 12
      var bytes = [UInt8](repeating: 0xAB, count: stride * size.height)
      for y in 0..<size.height {
        for x in 0..<size.width {
          let pixel = translucent[x, y]
          for c in 0..<4 { bytes[y * stride + x * 4 + c] = pixel[c] }
        }
      }
      let padded = PixelBuffer(width: size.width, height: size.height, bytesPerRow: stride, premultipliedRGBA: bytes)
      return (padded, translucent)
    }
  }

  /// The passes one at a time, in the order the convolution runs them.
  private func onePassAtATime(
    _ image: PixelBuffer, extentX: Double, extentY: Double, to target: PixelSize
  ) -> PixelBuffer {
    let size = image.size
    if Resampler.runsRowsFirst(size, extentX: extentX, extentY: extentY, to: target) {
      let across = Resampler.convolve(
        image, extentX: extentX, extentY: Double(size.height), to: PixelSize(width: target.width, height: size.height),
        kernel: .lanczos3)
      return Resampler.convolve(
        across, extentX: Double(target.width), extentY: extentY, to: target, kernel: .lanczos3)
    }
    let down = Resampler.convolve(
      image, extentX: Double(size.width), extentY: extentY, to: PixelSize(width: size.width, height: target.height),
      kernel: .lanczos3)
    return Resampler.convolve(down, extentX: extentX, extentY: Double(target.height), to: target, kernel: .lanczos3)
  }

  @Test(arguments: 0..<cases.count, Source.allCases)
  func bothPassesMatchThePassesOneAtATime(_ index: Int, _ kind: Source) {
    let (size, target, extentX, extentY) = Self.cases[index]
    let (image, reference) = source(kind, size)
    let expected = onePassAtATime(reference, extentX: extentX, extentY: extentY, to: target)
    let result = Resampler.convolve(image, extentX: extentX, extentY: extentY, to: target, kernel: .lanczos3)
    // With nothing to do the source comes back as it is, straight or not.
    #expect(result.premultiplied() == expected)
    #expect(result.isOpaque == (kind == .opaque))
    // The first two cases take the two orders.
    let rowsFirst = Resampler.runsRowsFirst(size, extentX: extentX, extentY: extentY, to: target)
    if index < 2 { #expect(rowsFirst == (index == 0)) }
  }
}
