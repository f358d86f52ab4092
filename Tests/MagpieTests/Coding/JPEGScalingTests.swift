import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// Decode-time downsampling with libjpeg's DCT scaling.
@Suite struct JPEGScalingTests {
  typealias Support = JPEGSupportForTests

  /// `scale.jpg` is 61x45; 1/d scaling rounds up, as libjpeg does.
  @Test(arguments: [2, 4, 8])
  func matchesPillowsScaledDecode(denominator d: Int) throws {
    let expected = PixelSize(width: (61 + d - 1) / d, height: (45 + d - 1) / d)
    var options = DecodeOptions()
    options.targetSize = expected
    #expect(options.shrinkDenominator(for: PixelSize(width: 61, height: 45), orientation: .up) == d)
    let image = try JPEGCoder().decode(try Support.fixture("scale.jpg"), options: options)
    #expect(image.pixelSize == expected)
    let reference = [UInt8](try Support.fixture("scale_d\(d).rgb"))
    #expect(Support.maxDifference(Support.rgb(image.pixels), reference) <= 1)
  }

  @Test func noTargetDecodesFullSize() throws {
    let image = try JPEGCoder().decode(try Support.fixture("scale.jpg"), options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: 61, height: 45))
  }

  /// For every target, the decode covers what the content mode needs and is
  /// the smallest libjpeg scale that does.
  @Test(arguments: [DecodeOptions.ContentMode.aspectFit, .aspectFill])
  func chosenScaleCoversTheTarget(mode: DecodeOptions.ContentMode) throws {
    let data = try Support.fixture("scale.jpg")
    let stored = PixelSize(width: 61, height: 45)
    for (w, h) in [(1, 1), (5, 5), (7, 6), (8, 6), (9, 6), (16, 16), (20, 40), (31, 23), (32, 23), (50, 10), (61, 45)] {
      var options = DecodeOptions()
      options.targetSize = PixelSize(width: w, height: h)
      options.contentMode = mode
      let needed = try #require(options.requiredStoredSize(for: stored, orientation: .up))
      let size = try JPEGCoder().decode(data, options: options).pixelSize
      #expect(size.width >= needed.width && size.height >= needed.height, "\(w)x\(h) gave \(size)")
      // One step further down would no longer cover the target.
      let denominator = (stored.width + size.width - 1) / size.width
      if denominator < 8 {
        let smaller = PixelSize(
          width: (stored.width + 2 * denominator - 1) / (2 * denominator),
          height: (stored.height + 2 * denominator - 1) / (2 * denominator))
        #expect(smaller.width < needed.width || smaller.height < needed.height, "\(w)x\(h) gave \(size)")
      }
    }
  }

  /// A 10000x10000 JPEG shown at 256x256 decodes at 1/8 (1250x1250) and never
  /// allocates the full 400 MB image: the process's peak resident memory
  /// grows by well under 64 MB while decoding.
  @Test func hugeImageDecodesSmallWithoutTheFullBuffer() throws {
    let side = 10_000
    // 16 distinct rows repeated down the image: a cheap 100-megapixel source.
    var strip = [UInt8]()
    strip.reserveCapacity(side * 16 * 3)
    for y in 0..<16 {
      for x in 0..<side { strip += [UInt8(x * 255 / side), UInt8(y * 16), UInt8((x / 64) % 2 * 200)] }
    }
    let data = try Support.encode(
      pixels: strip, width: side, height: side, sourceRows: 16, input: MP_JPEG_INPUT_RGB, quality: 75)
    strip = []
    #expect(try JPEGCoder().info(of: data).size == PixelSize(width: side, height: side))

    var options = DecodeOptions()
    options.targetSize = PixelSize(width: 256, height: 256)
    // The peak is the whole process's and other suites run in parallel: a
    // few tries, keeping the smallest growth, rule out their noise. A decode
    // that allocated the full image would grow it by 400 MB every time.
    var growth = Int.max
    var image: Image?
    for _ in 0..<3 where growth >= 64 * 1024 {
      let before = try Self.residentKilobytes(resettingPeak: true)
      image = try JPEGCoder().decode(data, options: options)
      growth = min(growth, try Self.residentKilobytes(resettingPeak: false, field: "VmHWM") - before)
    }
    #expect(growth < 64 * 1024, "peak resident memory grew by \(growth) kB")
    let decoded = try #require(image)
    #expect(decoded.pixelSize == PixelSize(width: 1250, height: 1250))
    #expect(!decoded.isPartial)
    // The decode is real: the strip's left-to-right red ramp survives.
    #expect(decoded.pixels[0, 600][0] < 10 && decoded.pixels[1249, 600][0] > 245)
  }

  /// Reads a `/proc/self/status` field in kB; first resets the peak
  /// (`VmHWM`) to the current size when asked.
  private static func residentKilobytes(resettingPeak: Bool, field: String = "VmRSS") throws -> Int {
    if resettingPeak {
      try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
    return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
  }
}
