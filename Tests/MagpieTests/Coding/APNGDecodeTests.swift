import Foundation
import Testing

@testable import Magpie

/// APNG playback against straight-alpha canvases the fixture script computed
/// from the known frames with exact compositing (cross-checked there with
/// Pillow where Pillow's decoder is exact), plus timing, limits and corrupt
/// files.
@Suite struct APNGDecodeTests {
  struct Reference {
    var size: PixelSize
    var delays: [Int]
    var loop: Int
    var frames: [[UInt8]]
  }

  static func reference(_ name: String) throws -> Reference {
    let json = try JSONSerialization.jsonObject(with: TestPaths.fixture("png/apng_reference.json")) as? [String: Any]
    let files = try #require(json?["files"] as? [String: [String: Any]])
    let entry = try #require(files[name])
    let size = try #require(entry["size"] as? [Int])
    let canvas = PixelSize(width: size[0], height: size[1])
    let all = [UInt8](try TestPaths.fixture("png/" + name.replacingOccurrences(of: ".png", with: ".frames")))
    let frameBytes = canvas.pixelCount * 4
    let frames = stride(from: 0, to: all.count, by: frameBytes).map { Array(all[$0..<($0 + frameBytes)]) }
    return Reference(
      size: canvas, delays: try #require(entry["delays_ms"] as? [Int]), loop: try #require(entry["loop"] as? Int),
      frames: frames)
  }

  private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws(MagpieError) -> Image {
    let data: Data
    do { data = try TestPaths.fixture("png/" + name) } catch {
      throw MagpieError(.fileSystem, "\(name) missing")
    }
    return try PNGCoder().decode(data, options: options)
  }

  /// Expects `frame` to equal the straight `expected` bytes exactly: these
  /// files blend only over opaque or transparent pixels, where exact
  /// rounding leaves no choice.
  private func expectFrame(_ frame: PixelBuffer, equals expected: [UInt8], _ label: String) {
    let actual = frame.straightRGBA()
    #expect(actual.count == expected.count, "\(label): size")
    var worst = 0
    var worstIndex = 0
    for i in 0..<min(actual.count, expected.count) {
      let difference = abs(Int(actual[i]) - Int(expected[i]))
      if difference > worst { (worst, worstIndex) = (difference, i) }
    }
    let pixel = worstIndex / 4
    let where_ = "(\(pixel % frame.width), \(pixel / frame.width))"
    let values = "\(Array(actual[(pixel * 4)..<(pixel * 4 + 4)])) vs \(Array(expected[(pixel * 4)..<(pixel * 4 + 4)]))"
    #expect(worst == 0, "\(label): pixel \(where_) differs by \(worst): \(values)")
  }

  @Test(arguments: ["apng_ops.png", "apng_hidden_default.png", "apng_palette.png"])
  func framesMatchReference(name: String) throws {
    let reference = try Self.reference(name)
    let image = try decode(name)
    #expect(image.format == .apng)
    #expect(image.loopCount == reference.loop)
    #expect(image.pixelSize == reference.size)
    #expect(image.frames.count == reference.frames.count)
    for (index, frame) in image.frames.enumerated() where index < reference.frames.count {
      expectFrame(frame.pixels, equals: reference.frames[index], "\(name) frame \(index)")
      #expect(frame.duration == ImageFrame.browserDuration(milliseconds: reference.delays[index]))
      // The opacity hint must never claim opacity that is not there.
      if frame.pixels.isOpaque {
        #expect(frame.pixels.packedBytes().enumerated().allSatisfy { $0 % 4 != 3 || $1 == 255 })
      }
    }
  }

  @Test func delaysAndLoopCountFollowTheFile() throws {
    // fcTL delays 1/10, 1/20, 1/30, 1/200 and 1/4 s; 5 ms plays as 100 ms.
    let image = try decode("apng_ops.png")
    #expect(image.frames.map(\.durationMilliseconds) == [100, 50, 33, 100, 250])
    #expect(image.loopCount == 3)
  }

  @Test func defaultImageOutsideTheAnimationIsNeverShown() throws {
    let image = try decode("apng_hidden_default.png")
    #expect(image.frames.count == 2)
    let magenta = SIMD4<UInt8>(255, 0, 255, 255)
    for frame in image.frames {
      for y in 0..<frame.pixels.height {
        for x in 0..<frame.pixels.width where frame.pixels[x, y] == magenta {
          Issue.record("default image pixel shown at (\(x), \(y))")
          return
        }
      }
    }
  }

  @Test(arguments: ["apng_ops.png", "apng_hidden_default.png", "apng_palette.png"])
  func infoReadsTimingWithoutDecoding(name: String) throws {
    let reference = try Self.reference(name)
    let data = try TestPaths.fixture("png/" + name)
    let info = try PNGCoder().info(of: data)
    #expect(info.format == .apng)
    #expect(info.size == reference.size)
    #expect(info.frameCount == reference.frames.count)
    #expect(info.loopCount == reference.loop)
    #expect(info.frameDurations == reference.delays.map { ImageFrame.browserDuration(milliseconds: $0) })
    #expect(info.byteCount == data.count)
  }

  @Test func firstFrameOnlyDecodesOneFrame() throws {
    let ops = try decode("apng_ops.png", DecodeOptions(firstFrameOnly: true))
    #expect(ops.frames.count == 1)
    expectFrame(ops.frames[0].pixels, equals: try Self.reference("apng_ops.png").frames[0], "first frame")
    let hidden = try decode("apng_hidden_default.png", DecodeOptions(firstFrameOnly: true))
    #expect(hidden.frames.count == 1)
    expectFrame(hidden.frames[0].pixels, equals: try Self.reference("apng_hidden_default.png").frames[0], "hidden")
  }

  @Test func totalByteLimitCoversAllFrames() throws {
    let oneFrame = 24 * 24 * 4
    #expect(try decode("apng_ops.png", DecodeOptions(maxTotalByteCount: 5 * oneFrame)).frames.count == 5)
    do {
      _ = try decode("apng_ops.png", DecodeOptions(maxTotalByteCount: 5 * oneFrame - 1))
      Issue.record("five frames decoded under a smaller limit")
    } catch {
      #expect(error.code == .imageTooLarge, "\(error)")
      #expect(
        error.reason.contains(
          "apng animation of 5 frames of 24x24 needs 11520 bytes, over the 11519-byte limit for all frames "
            + "(DecodeOptions.maxTotalByteCount)"), "\(error.reason)")
    }
    let first = try decode("apng_ops.png", DecodeOptions(maxTotalByteCount: oneFrame, firstFrameOnly: true))
    #expect(first.frames.count == 1)
  }

  @Test(arguments: [
    ("apng_bad_sequence.png", "sequence number 5 where 4 was expected"),
    ("apng_rect_outside.png", "does not lie inside the 24x24 canvas"),
    ("apng_bad_fdat_crc.png", "fdAT chunk at byte"),
  ])
  func corruptAnimationFails(name: String, reason: String) throws {
    do {
      let image = try decode(name)
      Issue.record("\(name) decoded \(image.frames.count) frames")
    } catch {
      #expect(error.code == .corruptData, "\(name): \(error)")
      #expect(error.reason.contains(reason), "\(name): \(error.reason)")
    }
    // Structure is checked by info(of:) too; the fdAT CRC only when decoding.
    if name != "apng_bad_fdat_crc.png" {
      #expect(throws: MagpieError.self) { try PNGCoder().info(of: try TestPaths.fixture("png/" + name)) }
    }
  }

  @Test func truncatedAnimationFailsUnlessOnlyIENDIsLost() throws {
    let data = try TestPaths.fixture("png/apng_ops.png")
    // Cut inside the last fdAT chunk: the file ends before its last frame.
    let cut = data.prefix(data.count - 40)
    #expect {
      try PNGCoder().decode(cut, options: DecodeOptions())
    } throws: { ($0 as? MagpieError)?.code == .truncatedData }
    // Cut inside a middle frame's fdAT: that frame and the rest are missing.
    #expect {
      try PNGCoder().decode(data.prefix(300), options: DecodeOptions())
    } throws: { ($0 as? MagpieError)?.code == .truncatedData }
    // Losing all or part of the 12-byte IEND loses no frame (as libpng
    // treats a still image).
    let whole = try decode("apng_ops.png")
    for lost in [12, 5, 1] {
      let image = try PNGCoder().decode(data.prefix(data.count - lost), options: DecodeOptions())
      #expect(image.frames == whole.frames, "missing \(lost) bytes")
    }
  }

  @Test func orientationTurnsEveryFrame() throws {
    // Insert an eXIf (orientation 3: upside down) after IHDR.
    var bytes = [UInt8](try TestPaths.fixture("png/apng_palette.png"))
    let exif: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0]
    let chunk =
      PNGDecodeTests.bigEndian(UInt32(exif.count)) + Array("eXIf".utf8) + exif
      + PNGDecodeTests.bigEndian(CRC32.checksum(Array("eXIf".utf8) + exif))
    bytes.insert(contentsOf: chunk, at: 33)
    let turned = try PNGCoder().decode(Data(bytes), options: DecodeOptions())
    let upright = try decode("apng_palette.png")
    #expect(turned.orientation == .down)
    #expect(turned.frames.count == upright.frames.count)
    for (a, b) in zip(turned.frames, upright.frames) {
      #expect(a.pixels == b.pixels.applying(.down))
      #expect(a.duration == b.duration)
    }
  }

  @Test func blendOverOnPremultipliedPixels() {
    // Half-transparent red (premultiplied 128, 0, 0, 128) over opaque blue:
    // red 128 + 0, blue round(255 * 127 / 255) = 127, alpha 128 + 127 = 255.
    var compositor = APNGCompositor(size: PixelSize(width: 1, height: 1))
    func control(blend: APNGFrameControl.BlendOp) throws -> APNGFrameControl {
      let fields: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 10, 0, blend.rawValue,
      ]
      return try fields.withUnsafeBytes { raw throws(MagpieError) in
        try APNGFrameControl(parsing: raw, canvas: PixelSize(width: 1, height: 1))
      }
    }
    let blue = PixelBuffer(width: 1, height: 1, straightRGBA: [0, 0, 255, 255])
    let red = PixelBuffer(width: 1, height: 1, straightRGBA: [255, 0, 0, 128])
    #expect(throws: Never.self) {
      _ = compositor.render(blue, control: try control(blend: .source))
      let shown = compositor.render(red, control: try control(blend: .over))
      #expect(shown[0, 0] == SIMD4(128, 0, 127, 255))
      #expect(shown.isOpaque)
    }
  }
}
