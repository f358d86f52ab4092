import Foundation
import Testing

@testable import Magpie

/// `DecodeOptions.maxFrameCount`: refused from the headers, by the eager
/// decode and the frame source of every animated core format, with the
/// count and the limit in the reason.
@Suite struct FrameCountLimitTests {
  /// The animated fixtures: file, coder, the format word in the reason.
  static let animations: [(path: String, coder: any ImageCoder, format: String)] = [
    ("gif/disposal.gif", GIFCoder(), "gif"), ("png/apng_ops.png", PNGCoder(), "apng"),
    ("webp/anmf.webp", WebPCoder(), "webp"),
  ]

  @Test func theDefaultIsTenThousand() {
    #expect(DecodeOptions().maxFrameCount == 10_000)
    #expect(DecodeOptions().frameCountToRefuse == 10_001)
    var unlimited = DecodeOptions()
    unlimited.maxFrameCount = .max
    #expect(unlimited.frameCountToRefuse == .max)
  }

  @Test(arguments: 0..<animations.count)
  func oneFrameOverTheLimitIsRefusedNamingCountAndLimit(_ index: Int) throws {
    let (path, coder, format) = Self.animations[index]
    try Self.expectOneFrameOverTheLimitRefused(path, coder: coder, format: format)
  }

  /// Decoding the animation at fixture `path` with a frame limit one under
  /// its frame count fails, eagerly and through a frame source, with the
  /// limit error naming `format`, the count and the limit.
  static func expectOneFrameOverTheLimitRefused(_ path: String, coder: any ImageCoder, format: String) throws {
    let data = try TestPaths.fixture(path)
    let frames = try coder.info(of: data).frameCount
    var options = DecodeOptions()
    options.maxFrameCount = frames - 1
    let expected = "\(format) frame count \(frames) exceeds maxFrameCount \(frames - 1)"
    for (what, attempt) in [
      ("decode", { () throws(MagpieError) in _ = try coder.decode(data, options: options) }),
      ("frame source", { () throws(MagpieError) in _ = try coder.frameSource(for: data, options: options) }),
    ] as [(String, () throws(MagpieError) -> Void)] {
      do {
        try attempt()
        Issue.record("\(path): \(what) passed the frame limit")
      } catch {
        #expect(error.code == .limitExceeded, "\(path) \(what): \(error)")
        #expect(error.reason == expected, "\(path) \(what)")
      }
    }
  }

  @Test(arguments: 0..<animations.count)
  func exactlyTheLimitDecodes(_ index: Int) throws {
    let (path, coder, _) = Self.animations[index]
    let data = try TestPaths.fixture(path)
    var options = DecodeOptions()
    options.maxFrameCount = try coder.info(of: data).frameCount
    #expect(try coder.decode(data, options: options).frames.count == options.maxFrameCount)
    #expect(try coder.frameSource(for: data, options: options)?.frameCount == options.maxFrameCount)
  }

  @Test(arguments: 0..<animations.count)
  func theFirstFrameOnlyIsNotLimited(_ index: Int) throws {
    let (path, coder, _) = Self.animations[index]
    var options = DecodeOptions(firstFrameOnly: true)
    options.maxFrameCount = 1
    #expect(try coder.decode(TestPaths.fixture(path), options: options).frames.count == 1)
  }

  /// 10,001 one-pixel frames in 210 KB: refused by the walk over the
  /// records, before any frame's pixels are decoded.
  @Test func aTinyGIFOfManyFramesIsRefusedFromItsRecords() {
    var bytes: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
    let frame: [UInt8] = [0x21, 0xF9, 4, 0, 1, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0]
    for _ in 0..<10_001 { bytes += frame }
    bytes.append(0x3B)
    #expect {
      _ = try GIFCoder().decode(Data(bytes), options: DecodeOptions())
    } throws: { error in
      (error as? MagpieError)?.reason == "gif frame count 10001 exceeds maxFrameCount 10000"
    }
  }
}
