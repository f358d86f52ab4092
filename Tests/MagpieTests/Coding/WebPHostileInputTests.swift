import Foundation
import Testing

@testable import Magpie

/// Truncated, corrupt and lying WebP files fail with the right codes and
/// never crash, hang or allocate past the limits.
@Suite struct WebPHostileInputTests {
  typealias Fixtures = GIFWebPFixtureTests

  static let fixtures = [
    "lossy.webp", "lossless.webp", "alpha_lossless.webp", "alpha_lossy.webp", "anmf.webp", "pillow_anim.webp",
    "orientation6.webp",
  ]

  private func expectError(
    _ code: MagpieError.Code, _ data: Data, options: DecodeOptions = DecodeOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    Fixtures.expectFailure(code, decoding: data, with: WebPCoder(), options: options, sourceLocation: sourceLocation)
  }

  private func littleEndian32(_ value: Int) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
  }

  /// Offset of the first chunk with `tag`, walking the RIFF chunks.
  private func chunkOffset(_ tag: String, in bytes: [UInt8]) -> Int? {
    var offset = 12
    while offset + 8 <= bytes.count {
      if String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) == tag { return offset }
      let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
      offset += 8 + size + (size & 1)
    }
    return nil
  }

  @Test(arguments: fixtures)
  func everyTruncationIsTruncatedData(name: String) throws {
    let data = try TestPaths.fixture("webp/\(name)")
    for length in 0..<data.count {
      expectError(.truncatedData, data.prefix(length))
      do {
        _ = try WebPCoder().info(of: data.prefix(length))
        Issue.record("info read a file cut at \(length)")
      } catch {
        #expect(error.code == .truncatedData)
      }
    }
  }

  @Test func aRIFFSizeLargerThanTheDataIsTruncated() throws {
    var bytes = [UInt8](try TestPaths.fixture("webp/lossy.webp"))
    bytes.replaceSubrange(4..<8, with: littleEndian32(bytes.count + 1000))
    expectError(.truncatedData, Data(bytes))
  }

  @Test func aDamagedBitstreamIsCorruptData() throws {
    // The VP8 key-frame start code 9d 01 2a, broken.
    var lossy = [UInt8](try TestPaths.fixture("webp/lossy.webp"))
    let vp8 = try #require(chunkOffset("VP8 ", in: lossy))
    lossy[vp8 + 8 + 3] ^= 0xFF
    expectError(.corruptData, Data(lossy))
    // The VP8L signature byte 0x2f, broken.
    var lossless = [UInt8](try TestPaths.fixture("webp/lossless.webp"))
    let vp8l = try #require(chunkOffset("VP8L", in: lossless))
    lossless[vp8l + 8] = 0x30
    expectError(.corruptData, Data(lossless))
    // Not a RIFF file at all.
    var notRIFF = [UInt8](try TestPaths.fixture("webp/lossless.webp"))
    notRIFF[0] = UInt8(ascii: "X")
    expectError(.corruptData, Data(notRIFF))
  }

  @Test func aCanvasThatDisagreesWithItsImageIsCorruptData() throws {
    // orientation6.webp: VP8X (6x4 canvas) + VP8L + EXIF; claim a 100x100 canvas.
    var bytes = [UInt8](try TestPaths.fixture("webp/orientation6.webp"))
    let vp8x = try #require(chunkOffset("VP8X", in: bytes))
    bytes.replaceSubrange((vp8x + 12)..<(vp8x + 18), with: [99, 0, 0, 99, 0, 0])
    expectError(.corruptData, Data(bytes))
  }

  @Test func anAnimationFrameOutsideItsCanvasIsCorruptData() throws {
    // anmf.webp frame 2 sits at (4, 2); move it to (40, 2) on a 24x16 canvas.
    var bytes = [UInt8](try TestPaths.fixture("webp/anmf.webp"))
    let first = try #require(chunkOffset("ANMF", in: bytes))
    let size = Int(bytes[first + 4]) | Int(bytes[first + 5]) << 8 | Int(bytes[first + 6]) << 16
    let second = first + 8 + size + (size & 1)
    #expect(bytes[second + 8] == 2)
    bytes[second + 8] = 20
    expectError(.corruptData, Data(bytes))
  }

  @Test func aHugeCanvasIsRefusedBeforeDecoding() throws {
    // anmf.webp with its canvas claimed as 16384x16384 and a low pixel limit.
    var bytes = [UInt8](try TestPaths.fixture("webp/anmf.webp"))
    let vp8x = try #require(chunkOffset("VP8X", in: bytes))
    bytes.replaceSubrange((vp8x + 12)..<(vp8x + 18), with: [0xFF, 0x3F, 0, 0xFF, 0x3F, 0])
    expectError(.imageTooLarge, Data(bytes), options: DecodeOptions(maxPixelCount: 10_000_000))
    #expect(try WebPCoder().info(of: Data(bytes)).size == PixelSize(width: 16384, height: 16384))
  }

  @Test func framesOverTheByteBudgetFailCleanly() throws {
    // anmf.webp: 6 frames of 24x16, 1536 bytes each.
    let data = try TestPaths.fixture("webp/anmf.webp")
    expectError(.imageTooLarge, data, options: DecodeOptions(maxTotalByteCount: 5 * 1536))
    #expect(try WebPCoder().decode(data, options: DecodeOptions(maxTotalByteCount: 6 * 1536)).frames.count == 6)
    let first = try WebPCoder().decode(data, options: DecodeOptions(maxTotalByteCount: 1536, firstFrameOnly: true))
    #expect(first.frames.count == 1)
  }

  @Test(arguments: fixtures)
  func fuzzedFixturesDecodeOrFailWithATypedError(name: String) throws {
    let data = try TestPaths.fixture("webp/\(name)")
    let result = Fixtures.fuzz(
      data, coder: WebPCoder(), seed: UInt64(name.utf8.count) &* 104_729, mutations: 300,
      codes: [.truncatedData, .corruptData, .imageTooLarge, .unsupportedFormat])
    #expect(result.decoded + result.failed > 300)
    #expect(result.failed > 0)
  }
}
