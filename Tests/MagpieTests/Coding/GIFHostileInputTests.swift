import Foundation
import Testing

@testable import Magpie

/// Truncated, corrupt and lying GIFs fail with the right codes, within the
/// limits, and never crash or hang.
@Suite struct GIFHostileInputTests {
  typealias Fixtures = GIFWebPFixtureTests

  /// A GIF built byte by byte: a 4-colour global table and frames of
  /// "uncompressed" LZW (a clear code before every pixel, so codes stay
  /// 3 bits), independent of any encoder under test.
  static func gif(screen: (Int, Int), frames: [(x: Int, y: Int, w: Int, h: Int, data: [UInt8])]) -> Data {
    func word(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    var bytes = Array("GIF89a".utf8) + word(screen.0) + word(screen.1) + [0xF1, 0, 0]
    bytes += [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
    bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
    for frame in frames {
      bytes += [0x21, 0xF9, 4, 0, 5, 0, 0, 0]
      bytes += [0x2C] + word(frame.x) + word(frame.y) + word(frame.w) + word(frame.h) + [0]
      bytes += [2]
      for start in stride(from: 0, to: frame.data.count, by: 255) {
        let block = frame.data[start..<min(frame.data.count, start + 255)]
        bytes += [UInt8(block.count)] + block
      }
      bytes += [0]
    }
    return Data(bytes + [0x3B])
  }

  /// LZW codes for `indices` (2-bit code size): clear, pixel, clear, pixel, ...,
  /// then `end` (the end code unless a test wants another).
  static func uncompressed(_ indices: [Int], end: Int = 5) -> [UInt8] {
    var codes: [Int] = []
    for index in indices { codes += [4, index] }
    codes.append(end)
    var out: [UInt8] = []
    var accumulator = 0
    var bits = 0
    for code in codes {
      accumulator |= code << bits
      bits += 3
      while bits >= 8 {
        out.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        bits -= 8
      }
    }
    if bits > 0 { out.append(UInt8(accumulator & 0xFF)) }
    return out
  }

  private func expectError(
    _ code: MagpieError.Code, _ data: Data, options: DecodeOptions = DecodeOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    Fixtures.expectFailure(code, decoding: data, with: GIFCoder(), options: options, sourceLocation: sourceLocation)
  }

  @Test func theHandBuiltGIFDecodes() throws {
    let data = Self.gif(
      screen: (2, 2),
      frames: [
        (0, 0, 2, 2, Self.uncompressed([1, 2, 3, 0])), (1, 1, 1, 1, Self.uncompressed([2])),
      ])
    let image = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(image.frames.count == 2)
    #expect(image.frames[0].pixels[0, 0] == SIMD4(255, 0, 0, 255))
    #expect(image.frames[0].pixels[1, 1] == SIMD4(0, 0, 0, 255))
    #expect(image.frames[1].pixels[1, 1] == SIMD4(0, 255, 0, 255))
    #expect(image.loopCount == 0)
  }

  @Test func aScreenOf60000By60000FailsBeforeAnyPixelIsRead() throws {
    let data = Self.gif(screen: (60000, 60000), frames: [(0, 0, 1, 1, Self.uncompressed([1]))])
    expectError(.imageTooLarge, data)
    // Even with the frames cut off: the size is refused before they are read.
    expectError(.imageTooLarge, data.prefix(13))
    // info reads the size without allocating pixels.
    #expect(try GIFCoder().info(of: data).size == PixelSize(width: 60000, height: 60000))
  }

  @Test func framesOverTheByteBudgetFailCleanly() throws {
    // disposal.gif: 7 frames of 16x16, 1 KiB each.
    let data = try TestPaths.fixture("gif/disposal.gif")
    expectError(.imageTooLarge, data, options: DecodeOptions(maxTotalByteCount: 3 * 1024))
    #expect(try GIFCoder().decode(data, options: DecodeOptions(maxTotalByteCount: 7 * 1024)).frames.count == 7)
    let first = try GIFCoder().decode(data, options: DecodeOptions(maxTotalByteCount: 1024, firstFrameOnly: true))
    #expect(first.frames.count == 1)
  }

  @Test func aFrameDeclaringHugeDimensionsIsRefusedBeforeDecoding() {
    // 65535x65535 declared inside a 2x2 screen, with a few bytes of data.
    let data = Self.gif(screen: (2, 2), frames: [(0, 0, 65535, 65535, Self.uncompressed([1, 1, 1]))])
    expectError(.imageTooLarge, data)
  }

  @Test func aFrameLargerThanItsDataIsTruncated() {
    // A 200x200 frame in a 16x16 screen with data for 3 pixels and no end code.
    var frameData = Self.uncompressed([1, 2, 3], end: 4)
    frameData.removeLast()
    var bytes = [UInt8](Self.gif(screen: (16, 16), frames: [(0, 0, 200, 200, frameData)]))
    // Cut right after the data blocks: the decoder runs out of input.
    bytes.removeLast(2)
    expectError(.truncatedData, Data(bytes))
  }

  @Test func corruptHeadersAndFirstFramesAreCorruptData() throws {
    let good = try TestPaths.fixture("gif/loop0.gif")
    var notGIF = [UInt8](good)
    notGIF[0] = UInt8(ascii: "J")
    expectError(.corruptData, Data(notGIF))

    // An LZW code size above 8 bits.
    expectError(.corruptData, Self.gif(screen: (2, 2), frames: [(0, 0, 2, 2, [])]).replacingCodeSize(with: 12))

    // An end code after one of four pixels in the only frame.
    expectError(.corruptData, Self.gif(screen: (2, 2), frames: [(0, 0, 2, 2, Self.uncompressed([1]))]))

    // An unknown record where the first frame should start.
    var bytes = [UInt8](Self.gif(screen: (2, 2), frames: [(0, 0, 2, 2, Self.uncompressed([1, 1, 1, 1]))]))
    let introducer = try #require(bytes.firstIndex(of: 0x21))
    bytes[introducer] = 0x99
    expectError(.corruptData, Data(bytes))

    // A trailer and nothing else.
    expectError(.corruptData, Self.gif(screen: (2, 2), frames: []))
  }

  @Test func aDamagedLaterFrameEndsTheAnimationThereAsBrowsersDo() throws {
    let data = Self.gif(
      screen: (2, 2),
      frames: [
        (0, 0, 2, 2, Self.uncompressed([1, 1, 1, 1])), (0, 0, 2, 2, Self.uncompressed([2])),
        (0, 0, 2, 2, Self.uncompressed([3, 3, 3, 3])),
      ])
    let image = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(image.frames.count == 2)
    #expect(image.isPartial)
    // The row cut short stays as the frame before drew it.
    #expect(image.frames[1].pixels[0, 0] == SIMD4(255, 0, 0, 255))
  }

  @Test(arguments: GIFDecoderTests.compositedFixtures)
  func fuzzedFixturesDecodeOrFailWithATypedError(name: String) throws {
    let data = try TestPaths.fixture("gif/\(name)")
    let result = Fixtures.fuzz(
      data, coder: GIFCoder(), seed: UInt64(name.utf8.count) &* 7919, mutations: 300,
      codes: [.truncatedData, .corruptData, .imageTooLarge])
    #expect(result.decoded + result.failed > 300)
    #expect(result.failed > 0)
  }
}

extension Data {
  /// The GIF with the LZW code size byte after its first image descriptor replaced.
  fileprivate func replacingCodeSize(with size: UInt8) -> Data {
    var bytes = [UInt8](self)
    if let descriptor = bytes.firstIndex(of: 0x2C), descriptor + 10 < bytes.count { bytes[descriptor + 10] = size }
    return Data(bytes)
  }
}
