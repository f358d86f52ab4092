import Foundation
import Testing

@testable import Magpie

/// GIF decoding against references the fixture script computed from the
/// known synthetic frames with the browser compositing rule.
@Suite struct GIFDecoderTests {
  typealias Fixtures = GIFWebPFixtureTests

  static let compositedFixtures = [
    "disposal.gif", "interlaced.gif", "overflow.gif", "delays.gif", "loop0.gif", "loop3.gif", "nocolortable.gif",
    "still_local.gif", "pillow_anim.gif", "palette_overflow.gif",
  ]

  @Test(arguments: compositedFixtures)
  func framesMatchTheBrowserRuleReferenceExactly(name: String) throws {
    let entry = try #require(try Fixtures.manifest("gif")[name])
    let image = try GIFCoder().decode(try TestPaths.fixture("gif/\(name)"), options: DecodeOptions())
    let expected = try Fixtures.expectedFrames("gif", name, entry)
    #expect(image.format == .gif)
    #expect(image.pixelSize == PixelSize(width: entry.width, height: entry.height))
    try #require(image.frames.count == entry.frames)
    for (i, frame) in image.frames.enumerated() {
      let got = frame.pixels.straightRGBA()
      #expect(got == expected[i], "\(name) frame \(i): max difference \(Fixtures.maxDifference(got, expected[i]))")
    }
    #expect(image.frames.map(\.durationMilliseconds) == entry.delays_ms)
    #expect(image.loopCount == entry.loop_count)
  }

  @Test func paletteIndicesPastTheColourTableFollowFirefox() throws {
    // palette_overflow.gif: 8-bit indices over a 4-entry global and an
    // 8-entry local table, and a transparent index past the local table;
    // the script's reference applies Firefox's rule (index & mask, white
    // past the table; see GIFFileReader.fillColorTable).
    let image = try GIFCoder().decode(try TestPaths.fixture("gif/palette_overflow.gif"), options: DecodeOptions())
    let reference = [UInt8](try TestPaths.fixture("gif/palette_overflow.gif.rgba"))
    let frameBytes = 8 * 6 * 4
    try #require(image.frames.count == 3)
    for (i, frame) in image.frames.enumerated() {
      let same = frame.pixels.straightRGBA() == Array(reference[(i * frameBytes)..<((i + 1) * frameBytes)])
      #expect(same, "frame \(i)")
    }
  }

  @Test func delaysFollowTheBrowserRule() throws {
    // The file stores 0, 10, 20 and 100 ms.
    let image = try GIFCoder().decode(try TestPaths.fixture("gif/delays.gif"), options: DecodeOptions())
    #expect(
      image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(100), .milliseconds(20), .milliseconds(100)])
  }

  @Test(arguments: [("delays.gif", 1), ("loop0.gif", 0), ("loop3.gif", 3)])
  func loopCountIsTheStoredValueOrOneWhenAbsent(name: String, loops: Int) throws {
    let data = try TestPaths.fixture("gif/\(name)")
    #expect(try GIFCoder().decode(data, options: DecodeOptions()).loopCount == loops)
    #expect(try GIFCoder().info(of: data).loopCount == loops)
  }

  @Test(arguments: compositedFixtures)
  func infoMatchesTheManifestWithoutDecoding(name: String) throws {
    let entry = try #require(try Fixtures.manifest("gif")[name])
    let data = try TestPaths.fixture("gif/\(name)")
    let info = try GIFCoder().info(of: data)
    #expect(info.format == .gif)
    #expect(info.size == PixelSize(width: entry.width, height: entry.height))
    #expect(info.frameCount == entry.frames)
    #expect(info.loopCount == entry.loop_count)
    #expect(info.frameDurations == entry.delays_ms.map { .milliseconds($0) })
    #expect(info.byteCount == data.count)
    #expect(info.orientation == .up)
  }

  @Test func stillImageHasOneFrameNoDurationAndLoopCountZero() throws {
    let image = try GIFCoder().decode(try TestPaths.fixture("gif/still_local.gif"), options: DecodeOptions())
    #expect(image.frames.count == 1)
    #expect(image.frames[0].duration == .zero)
    #expect(image.loopCount == 0)
    #expect(!image.isAnimated)
    // The frame covers only part of the screen: the rest stays transparent.
    #expect(!image.pixels.isOpaque)
    #expect(image.pixels[0, 0] == SIMD4(0, 0, 0, 0))
  }

  @Test func opaqueCanvasIsFlaggedOpaque() throws {
    let image = try GIFCoder().decode(try TestPaths.fixture("gif/delays.gif"), options: DecodeOptions())
    #expect(image.frames.allSatisfy { $0.pixels.isOpaque })
  }

  @Test func firstFrameOnlyStopsAfterTheFirstFrame() throws {
    let data = try TestPaths.fixture("gif/disposal.gif")
    let entry = try #require(try Fixtures.manifest("gif")["disposal.gif"])
    let image = try GIFCoder().decode(data, options: DecodeOptions(firstFrameOnly: true))
    #expect(image.frames.count == 1)
    #expect(image.pixels.straightRGBA() == (try Fixtures.expectedFrames("gif", "disposal.gif", entry))[0])
  }

  @Test func targetSizeIsIgnoredScaleAndOriginalDataAreKept() throws {
    let data = try TestPaths.fixture("gif/loop3.gif")
    let options = DecodeOptions(targetSize: PixelSize(width: 2, height: 2), keepsOriginalData: true, scale: 2)
    let image = try GIFCoder().decode(data, options: options)
    #expect(image.pixelSize == PixelSize(width: 6, height: 6))
    #expect(image.scale == 2)
    #expect(image.originalData == data)
  }

  @Test func theRegistryPicksTheGIFCoder() throws {
    let data = try TestPaths.fixture("gif/loop0.gif")
    #expect(CoderRegistry().decoder(for: data) is GIFCoder)
    #expect(try CoderRegistry().decode(data).frames.count == 2)
  }

  @Test func interlacedRowsFollowTheFourPasses() {
    for height in 1...40 {
      let rows = (0..<height).map { GIFCoder.interlacedRow($0, height: height) }
      var expected: [Int] = []
      for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        expected += Array(stride(from: start, to: height, by: step))
      }
      #expect(rows == expected, "height \(height)")
    }
  }

  @Test func aScreenOfZeroSizeTakesTheFirstFrameSize() throws {
    var bytes = [UInt8](try TestPaths.fixture("gif/loop0.gif"))
    for i in 6..<10 { bytes[i] = 0 }
    let image = try GIFCoder().decode(Data(bytes), options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: 6, height: 6))
    #expect(try GIFCoder().info(of: Data(bytes)).size == PixelSize(width: 6, height: 6))
  }

  @Test func aMissingTrailerAfterCompleteFramesStillDecodes() throws {
    let data = try TestPaths.fixture("gif/loop3.gif")
    #expect(data.last == 0x3B)
    let image = try GIFCoder().decode(data.dropLast(), options: DecodeOptions())
    #expect(image.frames.count == 2)
  }
}
