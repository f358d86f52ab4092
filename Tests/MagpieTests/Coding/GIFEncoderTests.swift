import Foundation
import Testing

@testable import Magpie

/// GIF encode → decode round trips against the known source pixels.
@Suite struct GIFEncoderTests {
  typealias Fixtures = GIFWebPFixtureTests

  /// A smooth photo-like gradient with far more than 256 colours.
  static func gradient(width: Int, height: Int) -> [UInt8] {
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let r = 128 + 100 * sin(Double(x) / 7) * cos(Double(y) / 11)
        let g = 90 + 80 * Double(x) / Double(width) + 40 * sin(Double(x + y) / 5)
        let b = 200 - 150 * Double(y) / Double(height)
        rgba += [UInt8(r), UInt8(g), UInt8(b), 255]
      }
    }
    return rgba
  }

  /// A frame of at most 6 colours: a background, a moving block, an optional
  /// transparent corner.
  static func blockFrame(_ i: Int, width: Int = 24, height: Int = 16, transparentCorner: Bool = false) -> PixelBuffer {
    let palette: [[UInt8]] = [
      [20, 40, 60], [250, 10, 10], [10, 250, 10], [10, 10, 250], [200, 200, 0], [9, 9, 9],
    ]
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        var color = palette[0]
        if x >= 2 + 3 * i && x < 8 + 3 * i && y >= 3 && y < 9 { color = palette[1 + i % 5] }
        let alpha: UInt8 = transparentCorner && x < 5 && y < 4 ? (i % 2 == 0 ? 0 : 100) : 255
        rgba += color + [alpha]
      }
    }
    return PixelBuffer(width: width, height: height, straightRGBA: rgba)
  }

  private func roundTrip(_ image: Image, coder: GIFCoder = GIFCoder()) throws -> (Data, Image) {
    let data = try coder.encode(image, as: .gif, options: EncodeOptions())
    #expect(ImageFormat.sniff(data) == .gif)
    return (data, try GIFCoder().decode(data, options: DecodeOptions()))
  }

  /// Mean absolute difference of 4x4 block averages: what the eye sees of
  /// a dithered image.
  static func blockMeanError(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> Double {
    var total = 0.0
    var count = 0.0
    for by in stride(from: 0, to: height - 3, by: 4) {
      for bx in stride(from: 0, to: width - 3, by: 4) {
        for c in 0..<3 {
          var sa = 0
          var sb = 0
          for y in by..<(by + 4) {
            for x in bx..<(bx + 4) {
              sa += Int(a[(y * width + x) * 4 + c])
              sb += Int(b[(y * width + x) * 4 + c])
            }
          }
          total += abs(Double(sa - sb)) / 16
          count += 1
        }
      }
    }
    return total / count
  }

  @Test func stillPhotoQuantisesWithinTheErrorBoundAndDitheringHelpsBlockMeans() throws {
    let source = Self.gradient(width: 64, height: 48)
    let image = Image(pixels: PixelBuffer(width: 64, height: 48, straightRGBA: source))
    let (_, plain) = try roundTrip(image, coder: GIFCoder(dithers: false))
    let (_, dithered) = try roundTrip(image, coder: GIFCoder(dithers: true))
    for decoded in [plain, dithered] {
      #expect(decoded.frames.count == 1)
      #expect(decoded.loopCount == 0)
      #expect(decoded.pixels.isOpaque)
    }
    let plainBytes = Fixtures.bytes(plain.pixels)
    let ditheredBytes = Fixtures.bytes(dithered.pixels)
    // Measured 34.5 dB plain and 32.5 dB dithered on this 3072-pixel source
    // (42.4/39.5/41.3/36.1 dB plain on Kodak 02/07/17/23).
    #expect(Fixtures.psnr(plainBytes, source) > 33)
    #expect(Fixtures.psnr(ditheredBytes, source) > 31)
    #expect(Fixtures.maxDifference(plainBytes, source) <= 24)
    let plainBlocks = Self.blockMeanError(plainBytes, source, width: 64, height: 48)
    let ditheredBlocks = Self.blockMeanError(ditheredBytes, source, width: 64, height: 48)
    #expect(ditheredBlocks < plainBlocks, "block error \(ditheredBlocks) dithered vs \(plainBlocks) plain")
  }

  @Test func aStillOfFewColoursRoundTripsExactly() throws {
    let pixels = Self.blockFrame(1)
    let (_, decoded) = try roundTrip(Image(pixels: pixels))
    #expect(decoded.pixels == pixels)
  }

  @Test func alphaBelowHalfBecomesTransparentAndAboveBecomesOpaque() throws {
    var rgba: [UInt8] = []
    for a in [0, 60, 127, 128, 200, 255] { rgba += [200, 100, 50, UInt8(a)] }
    let (_, decoded) = try roundTrip(Image(pixels: PixelBuffer(width: 6, height: 1, straightRGBA: rgba)))
    let alphas = (0..<6).map { decoded.pixels[$0, 0][3] }
    #expect(alphas == [0, 0, 0, 255, 255, 255])
    // Alpha 128 keeps its straight colour exactly (once stored as 100
    // premultiplied, it read back as 199).
    #expect(Array(decoded.pixels.straightRGBA()[12..<16]) == [200, 100, 50, 255])
    #expect(decoded.pixels[5, 0] == SIMD4(200, 100, 50, 255))
    #expect(!decoded.pixels.isOpaque)
  }

  @Test func animationKeepsFramesDelaysAndLoopCount() throws {
    let durations: [Duration] = [
      .milliseconds(100), .milliseconds(50), .milliseconds(20), .seconds(1), .milliseconds(35),
    ]
    let frames = durations.enumerated().map { ImageFrame(pixels: Self.blockFrame($0.offset), duration: $0.element) }
    let (data, decoded) = try roundTrip(Image(frames: frames, loopCount: 3))
    try #require(decoded.frames.count == 5)
    for i in 0..<5 { #expect(decoded.frames[i].pixels == frames[i].pixels, "frame \(i)") }
    // Centiseconds, rounded: 35 ms is stored as 4 cs.
    #expect(decoded.frames.map(\.durationMilliseconds) == [100, 50, 20, 1000, 40])
    #expect(decoded.loopCount == 3)
    // Opaque animations store only what changed after the first frame.
    let rects = try frameRects(data)
    #expect(rects[0] == [0, 0, 24, 16])
    #expect(rects[1..<5].allSatisfy { $0[2] * $0[3] < 24 * 16 })
  }

  @Test func animationWithTransparencyShowsEachFrameExactly() throws {
    let frames = (0..<4).map {
      ImageFrame(pixels: Self.blockFrame($0, transparentCorner: true), duration: .milliseconds(70))
    }
    let (_, decoded) = try roundTrip(Image(frames: frames, loopCount: 0))
    try #require(decoded.frames.count == 4)
    for i in 0..<4 {
      // Alpha 100 is below half: those pixels come back transparent.
      var expected = Self.blockFrame(i, transparentCorner: true).straightRGBA()
      for p in stride(from: 0, to: expected.count, by: 4) where expected[p + 3] < 128 {
        expected.replaceSubrange(p..<(p + 4), with: [0, 0, 0, 0])
      }
      #expect(Fixtures.bytes(decoded.frames[i].pixels) == expected, "frame \(i)")
    }
    #expect(decoded.loopCount == 0)
  }

  @Test func loopCountOneIsWrittenAsPlayOnce() throws {
    let frames = (0..<2).map { ImageFrame(pixels: Self.blockFrame($0), duration: .milliseconds(100)) }
    let (data, decoded) = try roundTrip(Image(frames: frames, loopCount: 1))
    #expect(decoded.loopCount == 1)
    #expect(data.range(of: Data("NETSCAPE2.0".utf8)) == nil)
  }

  @Test func firstFrameOnlyWritesAStill() throws {
    let frames = (0..<3).map { ImageFrame(pixels: Self.blockFrame($0), duration: .milliseconds(100)) }
    let data = try GIFCoder().encode(
      Image(frames: frames, loopCount: 0), as: .gif, options: EncodeOptions(firstFrameOnly: true))
    let decoded = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(decoded.frames.count == 1)
    #expect(decoded.pixels == frames[0].pixels)
  }

  @Test func refusesOtherFormatsAndImpossibleSizes() throws {
    #expect(GIFCoder().canEncode(to: .gif))
    #expect(!GIFCoder().canEncode(to: .png))
    let small = Image(pixels: Self.blockFrame(0))
    #expect(throws: MagpieError.self) { try GIFCoder().encode(small, as: .png, options: EncodeOptions()) }
    let wide = Image(pixels: PixelBuffer(width: 70000, height: 1))
    do {
      _ = try GIFCoder().encode(wide, as: .gif, options: EncodeOptions())
      Issue.record("a 70000-pixel-wide gif was written")
    } catch {
      #expect(error.code == .invalidArgument)
    }
  }

  @Test func theQuantiserKeepsExactColoursAndCapsTheirNumber() {
    let few: [UInt32] = [0xFF00_00FF, 0xFF00_FF00, 0x10FF_0000, 0xFF00_00FF]
    few.withUnsafeBufferPointer { buffer in
      // The 0x10 alpha pixel is transparent and does not count.
      #expect(GIFColorQuantizer.exactColors(buffer, limit: 256)?.count == 2)
    }
    let many = (0..<4096).map { UInt32(0xFF00_0000) | UInt32($0 * 4093 % 0xFF_FFFF) }
    many.withUnsafeBufferPointer { buffer in
      #expect(GIFColorQuantizer.exactColors(buffer, limit: 256) == nil)
      let palette = GIFColorQuantizer.palette(for: buffer, maxColors: 256)
      #expect(palette.count <= 256 && palette.count > 200)
      #expect(palette.allSatisfy { all($0 .>= 0) && all($0 .<= 255) })
    }
  }

  /// Each frame's [x, y, width, height] from the written file.
  private func frameRects(_ data: Data) throws -> [[Int]] {
    try GIFFileReader.withReader(data) { reader throws(MagpieError) -> [[Int]] in
      var rects: [[Int]] = []
      while let frame = try reader.nextFrame() {
        rects.append([frame.left, frame.top, frame.width, frame.height])
        try reader.skipImageData(frame: reader.frameCount)
      }
      return rects
    }
  }
}
