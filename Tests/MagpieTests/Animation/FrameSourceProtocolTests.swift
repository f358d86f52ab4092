import Foundation
import Testing

@testable import Magpie

/// The protocol side of frame sources: a coder without one (the default),
/// a user coder with one of its own through the registry, orientation, and
/// animations over the eager decode's all-frames limit.
@Suite struct FrameSourceProtocolTests {
  /// Every frame is one colour, the frame index in red.
  final class CountingSource: ImageFrameSource {
    let canvasSize = PixelSize(width: 2, height: 2)
    let frameCount = 3
    let loopCount = 0
    func duration(ofFrame index: Int) -> Duration { .milliseconds(50) }
    func frame(at index: Int) throws(MagpieError) -> PixelBuffer {
      PixelBuffer(
        width: 2, height: 2,
        straightRGBA: [UInt8](repeating: 0, count: 16).enumerated().map { offset, _ in
          offset % 4 == 0 ? UInt8(index) : 255
        })
    }
  }

  /// Takes GIF data; decodes eagerly only, unless `providesSource`.
  struct UserCoder: ImageCoder {
    var providesSource: Bool
    func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .gif }
    func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
      try GIFCoder().decode(data, options: options)
    }
    func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
      providesSource ? CountingSource() : nil
    }
  }

  /// Only the protocol's requirements without a frame source.
  struct EagerCoder: ImageCoder {
    func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .gif }
    func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
      try GIFCoder().decode(data, options: options)
    }
  }

  @Test func aCoderWithoutAFrameSourceGivesNilAndAUserSourceIsUsed() throws {
    let gif = GIFFrameSourceTests.everyDisposal().data()
    let registry = CoderRegistry()
    #expect(try registry.frameSource(for: gif) is GIFFrameSource)
    registry.register(EagerCoder())
    #expect(try registry.frameSource(for: gif) == nil)
    registry.register(UserCoder(providesSource: true))
    let source = try #require(try registry.frameSource(for: gif))
    #expect(source is CountingSource)
    #expect(try source.frame(at: 2).straightRGBA()[0] == 2)
  }

  @Test func framesAreTurnedAsTheEagerDecodeTurnsThem() throws {
    // Orientation 6 (turned a quarter clockwise) in an eXIf after IHDR.
    var bytes = [UInt8](APNGFrameSourceTests.everyOp().data())
    let exif: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
    let chunk =
      PNGDecodeTests.bigEndian(UInt32(exif.count)) + Array("eXIf".utf8) + exif
      + PNGDecodeTests.bigEndian(CRC32.checksum(Array("eXIf".utf8) + exif))
    bytes.insert(contentsOf: chunk, at: 33)
    for applies in [true, false] {
      let options = DecodeOptions(appliesOrientation: applies)
      let image = try FrameSourceExpectations.expectMatchesEager(
        Data(bytes), coder: PNGCoder(), options: options, "orientation applied: \(applies)")
      #expect(image.pixelSize == (applies ? PixelSize(width: 8, height: 10) : PixelSize(width: 10, height: 8)))
    }
  }

  @Test func anAnimationOverTheAllFramesLimitStillMakesASource() throws {
    let options = DecodeOptions(maxTotalByteCount: 1000)
    let gif = GIFFrameSourceTests.everyDisposal().data()
    let apng = APNGFrameSourceTests.everyOp().data()
    let webp = try WebPFrameSourceTests.layout().data()
    #expect(throws: MagpieError.self) { try GIFCoder().decode(gif, options: options) }
    #expect(throws: MagpieError.self) { try PNGCoder().decode(apng, options: options) }
    #expect(throws: MagpieError.self) { try WebPCoder().decode(webp, options: options) }
    let eager = try GIFCoder().decode(gif, options: DecodeOptions())
    let source = try #require(try GIFCoder().frameSource(for: gif, options: options))
    #expect(try source.frame(at: 13) == eager.frames[13].pixels)
    #expect(
      try PNGCoder().frameSource(for: apng, options: options)?.frame(at: 11).size == PixelSize(width: 10, height: 8))
    #expect(
      try WebPCoder().frameSource(for: webp, options: options)?.frame(at: 9).size == PixelSize(width: 12, height: 10))
  }
}
