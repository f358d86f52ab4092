import Foundation
import Testing

@testable import Magpie

/// Animations written as APNG come back frame for frame, and survive
/// round trips through every animated format.
@Suite struct APNGEncoderTests {
  /// `count` frames of 12x8 in a handful of colours (so GIF holds them
  /// exactly), each frame different, the last with transparent pixels.
  private func animation(count: Int = 3, durations: [Int] = [50, 120, 200], loopCount: Int = 3) -> Image {
    let palette: [[UInt8]] = [[255, 0, 0, 255], [0, 128, 255, 255], [20, 200, 40, 255], [250, 250, 10, 255]]
    let frames = (0..<count).map { index in
      var bytes: [UInt8] = []
      for y in 0..<8 {
        for x in 0..<12 {
          let transparent = index == count - 1 && x < 3
          bytes += transparent ? [0, 0, 0, 0] : palette[(x / 3 + y / 4 + index) % palette.count]
        }
      }
      return ImageFrame(
        pixels: PixelBuffer(width: 12, height: 8, straightRGBA: bytes), duration: .milliseconds(durations[index]))
    }
    var image = Image(pixels: frames[0].pixels)
    image.frames = frames
    image.loopCount = loopCount
    return image
  }

  private func straightFrames(_ image: Image) -> [[UInt8]] {
    image.frames.map { $0.pixels.straightRGBA().withUnsafeBytes { Array($0) } }
  }

  @Test func anAnimationComesBackFrameForFrame() throws {
    let source = animation(durations: [30, 120, 70_000])
    let data = try CoderRegistry.shared.encode(source, as: .apng)
    #expect(ImageFormat.sniff(data) == .apng)
    // As .png, only the first frame is written.
    #expect(ImageFormat.sniff(try CoderRegistry.shared.encode(source, as: .png)) == .png)
    let decoded = try CoderRegistry.shared.decode(data)
    #expect(decoded.format == .apng)
    #expect(straightFrames(decoded) == straightFrames(source))
    #expect(decoded.frames.map(\.duration) == [.milliseconds(30), .milliseconds(120), .milliseconds(70_000)])
    #expect(decoded.loopCount == 3)
    let info = try CoderRegistry.shared.info(of: data)
    #expect(info.frameCount == 3)
    #expect(info.loopCount == 3)
  }

  @Test func aStillImageIsAPlainPNGEvenAsAPNG() throws {
    let data = try CoderRegistry.shared.encode(Image(pixels: animation().frames[0].pixels), as: .apng)
    #expect(ImageFormat.sniff(data) == .png)
  }

  @Test func gifToWebPToGIFToAPNGKeepsFramesDelaysAndLoops() throws {
    let registry = CoderRegistry.shared
    let gif = try registry.decode(try registry.encode(animation(), as: .gif))
    let expected = straightFrames(gif)
    #expect(gif.frames.count == 3)
    let webp = try registry.decode(try registry.encode(gif, as: .webp, options: EncodeOptions(lossless: true)))
    let gifAgain = try registry.decode(try registry.encode(webp, as: .gif))
    let apng = try registry.decode(try registry.encode(gifAgain, as: .apng))
    for (name, image) in [("webp", webp), ("gif", gifAgain), ("apng", apng)] {
      #expect(straightFrames(image) == expected, "\(name) frames")
      #expect(image.frames.map(\.duration) == [.milliseconds(50), .milliseconds(120), .milliseconds(200)], "\(name)")
      #expect(image.loopCount == 3, "\(name) loops")
    }
  }
}
