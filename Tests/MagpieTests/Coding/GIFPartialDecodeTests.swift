import Foundation
import Testing

@testable import Magpie

/// A GIF damaged after its first frame keeps the frames before the damage,
/// flagged `isPartial` (as Firefox keeps a GIF usable once one frame is
/// complete); a damaged first frame still fails, and
/// `allowsPartialImage = false` turns the partial result into the error.
/// Inputs are hand-built (GIFHostileInputTests.gif) or cut from the
/// script-written fixtures; expected pixels come from the colours written
/// or from the fixtures' browser-rule references.
@Suite struct GIFPartialDecodeTests {
  typealias Hostile = GIFHostileInputTests

  static let strict = DecodeOptions(allowsPartialImage: false)

  /// Three solid frames on a `side` x `side` screen: red, green, blue
  /// (palette indices 1, 2, 3), each covering the whole screen.
  static func redGreenBlue(side: Int) -> Data {
    let frames = (1...3).map { index in
      (x: 0, y: 0, w: side, h: side, data: Hostile.uncompressed(Array(repeating: index, count: side * side)))
    }
    return Hostile.gif(screen: (side, side), frames: frames)
  }

  static let red: [UInt8] = [255, 0, 0, 255]
  static let green: [UInt8] = [0, 255, 0, 255]
  static let blue: [UInt8] = [0, 0, 255, 255]

  /// Straight RGBA of a `side` x `side` canvas whose first `rows` rows are
  /// `top` and the rest `rest`.
  static func canvas(side: Int, rows: Int, _ top: [UInt8], _ rest: [UInt8]) -> [UInt8] {
    (0..<side).flatMap { y in Array([[UInt8]](repeating: y < rows ? top : rest, count: side).joined()) }
  }

  /// The offset of the `n`-th (0-based) image separator in a file built by
  /// ``GIFHostileInputTests/gif(screen:frames:)`` (each follows a graphic
  /// control extension, whose fixed bytes cannot contain 0x2C here).
  static func descriptor(_ n: Int, in bytes: [UInt8]) throws -> Int {
    var found = -1
    for i in 0..<(bytes.count - 8) where bytes[i] == 0x21 && bytes[i + 1] == 0xF9 && bytes[i + 8] == 0x2C {
      found += 1
      if found == n { return i + 8 }
    }
    throw MagpieError(.corruptData, "no descriptor \(n)")
  }

  @Test func aLaterFrameCutShortKeepsTheFramesBeforeItAndTheRowsItHas() throws {
    // 32x32 frames: 2048 three-bit codes, 768 bytes in blocks of 255. Cut
    // frame 3 after its first block and 10 bytes of the second: 255 bytes,
    // 680 codes, 340 pixels, so 10 whole rows of blue over the green.
    let bytes = [UInt8](Self.redGreenBlue(side: 32))
    let third = try Self.descriptor(2, in: bytes)
    let cut = Data(bytes.prefix(third + 10 + 1 + 1 + 255 + 1 + 10))
    let image = try GIFCoder().decode(cut, options: DecodeOptions())
    #expect(image.isPartial)
    try #require(image.frames.count == 3)
    #expect(image.frames[0].pixels.straightRGBA() == Self.canvas(side: 32, rows: 32, Self.red, Self.red))
    #expect(image.frames[1].pixels.straightRGBA() == Self.canvas(side: 32, rows: 32, Self.green, Self.green))
    #expect(image.frames[2].pixels.straightRGBA() == Self.canvas(side: 32, rows: 10, Self.blue, Self.green))
    #expect(try GIFCoder().info(of: cut).frameCount == 3)
    #expect(throws: MagpieError.self) { try GIFCoder().decode(cut, options: Self.strict) }
    #expect(Self.code(decoding: cut, Self.strict) == .truncatedData)
  }

  @Test func aCutInsideALaterDescriptorKeepsTheFramesBeforeIt() throws {
    let bytes = [UInt8](Self.redGreenBlue(side: 4))
    let second = try Self.descriptor(1, in: bytes)
    let cut = Data(bytes.prefix(second + 5))
    let image = try GIFCoder().decode(cut, options: DecodeOptions())
    #expect(image.isPartial)
    #expect(image.frames.count == 1)
    #expect(image.frames.first?.pixels.straightRGBA() == Self.canvas(side: 4, rows: 4, Self.red, Self.red))
    #expect(try GIFCoder().info(of: cut).frameCount == 1)
    #expect(Self.code(decoding: cut, Self.strict) == .truncatedData)
  }

  @Test func aBadRecordBetweenFramesEndsTheAnimationThere() throws {
    var bytes = [UInt8](Self.redGreenBlue(side: 4))
    // Frame 3's graphic control extension introducer becomes junk.
    bytes[try Self.descriptor(2, in: bytes) - 8] = 0x99
    let data = Data(bytes)
    let image = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(image.isPartial)
    try #require(image.frames.count == 2)
    #expect(image.frames[1].pixels.straightRGBA() == Self.canvas(side: 4, rows: 4, Self.green, Self.green))
    #expect(try GIFCoder().info(of: data).frameCount == 2)
    #expect(Self.code(decoding: data, Self.strict) == .corruptData)
  }

  @Test func corruptLZWInALaterFrameIsPartialUnlessStrict() throws {
    // Frame 2 ends after one of its four pixels (the end code comes early).
    let data = Hostile.gif(
      screen: (2, 2),
      frames: [
        (0, 0, 2, 2, Hostile.uncompressed([1, 1, 1, 1])), (0, 0, 2, 2, Hostile.uncompressed([2])),
        (0, 0, 2, 2, Hostile.uncompressed([3, 3, 3, 3])),
      ])
    let image = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(image.isPartial)
    #expect(image.frames.count == 2)
    #expect(Self.code(decoding: data, Self.strict) == .corruptData)
  }

  @Test func aDamagedFirstFrameStillFails() throws {
    let bytes = [UInt8](Self.redGreenBlue(side: 32))
    let first = try Self.descriptor(0, in: bytes)
    let cut = Data(bytes.prefix(first + 10 + 1 + 1 + 255 + 1 + 10))
    #expect(Self.code(decoding: cut, DecodeOptions()) == .truncatedData)
    #expect(throws: MagpieError.self) { try GIFCoder().info(of: cut) }
  }

  @Test func damageAfterTheFirstFrameDoesNotTouchAFirstFrameDecode() throws {
    let bytes = [UInt8](Self.redGreenBlue(side: 4))
    let cut = Data(bytes.prefix(try Self.descriptor(1, in: bytes) + 5))
    let image = try GIFCoder().decode(cut, options: DecodeOptions(firstFrameOnly: true, allowsPartialImage: false))
    #expect(!image.isPartial)
    #expect(image.frames.count == 1)
  }

  @Test func aMissingTrailerIsNotDamage() throws {
    let data = Self.redGreenBlue(side: 4)
    #expect(data.last == 0x3B)
    let image = try GIFCoder().decode(data.dropLast(), options: Self.strict)
    #expect(!image.isPartial)
    #expect(image.frames.count == 3)
  }

  @Test(arguments: GIFDecoderTests.compositedFixtures)
  func everyTruncationFailsOrKeepsTheFramesBeforeTheCut(name: String) throws {
    let data = try TestPaths.fixture("gif/\(name)")
    let entry = try #require(try GIFWebPFixtureTests.manifest("gif")[name])
    let all = [UInt8](try TestPaths.fixture("gif/\(name).rgba"))
    let frameBytes = entry.width * entry.height * 4
    let reference = (0..<entry.frames).map { Array(all[($0 * frameBytes)..<(($0 + 1) * frameBytes)]) }
    var partials = 0
    for length in 0..<data.count {
      let cut = data.prefix(length)
      do {
        let image = try GIFCoder().decode(cut, options: DecodeOptions())
        let count = image.frames.count
        #expect(count <= entry.frames, "\(name) cut at \(length)")
        // Every frame but the last is whole; so is the last unless partial.
        let whole = image.isPartial ? count - 1 : count
        for i in 0..<min(whole, entry.frames) {
          let same = image.frames[i].pixels.straightRGBA() == reference[i]
          #expect(same, "\(name) cut at \(length): frame \(i) differs from the reference")
        }
        partials += image.isPartial ? 1 : 0
      } catch {
        #expect(error.code == .truncatedData, "\(name) cut at \(length): \(error)")
      }
      // Strict decoding never returns a partial image.
      if let image = try? GIFCoder().decode(cut, options: Self.strict) {
        #expect(!image.isPartial, "\(name) cut at \(length)")
      }
    }
    // Animations cut after their first frame come back partial.
    #expect((partials > 0) == (entry.frames > 1), "\(name): \(partials) partial decodes")
  }

  /// The error code decoding `data` throws, nil when it decodes.
  static func code(decoding data: Data, _ options: DecodeOptions) -> MagpieError.Code? {
    do {
      _ = try GIFCoder().decode(data, options: options)
      return nil
    } catch {
      return error.code
    }
  }
}
