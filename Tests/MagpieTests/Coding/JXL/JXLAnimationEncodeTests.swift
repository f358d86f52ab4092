#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import MagpieJXL
  import Testing

  /// A JPEG XL animation JXLCoder writes keeps its frames, durations and
  /// loop count, as `jxlinfo` (libjxl-tools) reads them, as JXLCoder
  /// decodes them, and as `djxl` renders the first frame.
  @Suite struct JXLAnimationEncodeTests {
    let coder = JXLCoder()

    /// Three 32x24 frames of different gradients, 40, 120 and 250 ms,
    /// played 3 times.
    static func animation() -> Image {
      let durations = [40, 120, 250]
      let frames = durations.enumerated().map { index, milliseconds in
        var bytes = [UInt8](repeating: 255, count: 32 * 24 * 4)
        for y in 0..<24 {
          for x in 0..<32 {
            let i = (y * 32 + x) * 4
            bytes[i] = UInt8(x * 8)
            bytes[i + 1] = UInt8(y * 10)
            bytes[i + 2] = UInt8(index * 120)
          }
        }
        return ImageFrame(
          pixels: PixelBuffer(width: 32, height: 24, straightRGBA: bytes), duration: .milliseconds(milliseconds))
      }
      return Image(frames: frames, loopCount: 3, format: .png)
    }

    @Test func jxlinfoSeesEveryFrameItsDurationAndTheLoopCount() throws {
      let encoded = try coder.encode(Self.animation(), as: .jxl, options: EncodeOptions(lossless: true))
      let info = try ReferenceTool.run("jxlinfo", ["IN"], input: encoded, inputName: "in.jxl").stdout
      #expect(info.contains("JPEG XL animation, 32x24"), "\(info)")
      let durations = info.split(separator: "\n").filter { $0.hasPrefix("frame:") }.map {
        $0.components(separatedBy: "duration: ").last ?? ""
      }
      #expect(durations == ["40.0 ms", "120.0 ms", "250.0 ms"], "\(info)")
      // jxlinfo 0.7 states the loop count as the length of every play:
      // 3 x 410 ms, and "(looping)" only for an endless animation.
      #expect(info.contains("Animation length: 1.230 seconds\n"), "\(info)")
    }

    @Test func decodesBackWithItsTiming() throws {
      let source = Self.animation()
      let encoded = try coder.encode(source, as: .jxl, options: EncodeOptions(lossless: true))
      let decoded = try coder.decode(encoded, options: DecodeOptions())
      #expect(decoded.frames.count == 3)
      #expect(decoded.frames.map(\.durationMilliseconds) == [40, 120, 250])
      #expect(decoded.loopCount == 3)
      #expect(decoded.frames.map(\.pixels) == source.frames.map(\.pixels))
      let first = try ReferenceTool.decodeToPNG("djxl", encoded, inputName: "in.jxl")
      #expect(first.pixels.straightRGBA() == source.frames[0].pixels.straightRGBA())
    }

    @Test func firstFrameOnlyWritesAStill() throws {
      let encoded = try coder.encode(
        Self.animation(), as: .jxl, options: EncodeOptions(lossless: true, firstFrameOnly: true))
      let info = try coder.info(of: encoded)
      #expect(info.frameCount == 1)
    }
  }
#endif
