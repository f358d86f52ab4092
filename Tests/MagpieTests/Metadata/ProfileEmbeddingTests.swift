import Foundation
import Testing

@testable import Magpie

/// Profiles written on encode, read back by the decoders' profile readers
/// (libjpeg's `jpeg_read_icc_profile` for JPEG, the iCCP inflater for PNG,
/// libwebp's demuxer for WebP) and checked by the pixels they give: the
/// re-encoded P3 photo still converts to Pillow ImageCms's sRGB.
@Suite struct ProfileEmbeddingTests {
  private typealias Support = ColorTestSupport

  /// p3.png decoded with its colours and profile kept.
  private func preservedP3() throws -> Image {
    let image = try CoderRegistry.shared.decode(try Support.fixture("p3.png"), options: Support.preserving)
    #expect(image.colorProfile != nil)
    return image
  }

  @Test(arguments: [ImageFormat.jpeg, .png, .webp])
  func theOriginalProfileTravelsWithPreservedPixels(_ format: ImageFormat) throws {
    let image = try preservedP3()
    var options = EncodeOptions(quality: 100, lossless: true)
    options.colorProfile = .original
    let encoded = try CoderRegistry.shared.encode(image, as: format, options: options)
    let again = try CoderRegistry.shared.decode(encoded, options: Support.preserving)
    #expect(again.colorProfile == image.colorProfile)
    // Converted on the next decode, a lossless file is the reference sRGB
    // (a JPEG's loss is its own).
    guard format != .jpeg else { return }
    let converted = try CoderRegistry.shared.decode(encoded)
    #expect(Support.maxDifference(Support.rgb(converted.pixels), try Support.reference("p3_png")) <= Support.tolerance)
  }

  @Test func sRGBPixelsAreWrittenUntaggedByDefault() throws {
    let image = try CoderRegistry.shared.decode(try Support.fixture("p3.png"))
    #expect(image.colorProfile == nil)
    let encoded = try CoderRegistry.shared.encode(image, as: .png)
    #expect(try CoderRegistry.shared.decode(encoded, options: Support.preserving).colorProfile == nil)
  }

  @Test func noneDropsTheProfile() throws {
    var options = EncodeOptions()
    options.colorProfile = .none
    let encoded = try CoderRegistry.shared.encode(try preservedP3(), as: .png, options: options)
    #expect(try CoderRegistry.shared.decode(encoded, options: Support.preserving).colorProfile == nil)
  }

  @Test(arguments: [ImageFormat.jpeg, .png, .webp])
  func sRGBEmbedsLcmsSRGBAfterConvertingTaggedPixels(_ format: ImageFormat) throws {
    var options = EncodeOptions(quality: 100, lossless: true)
    options.colorProfile = .sRGB
    let encoded = try CoderRegistry.shared.encode(try preservedP3(), as: format, options: options)
    let stored = try CoderRegistry.shared.decode(encoded, options: Support.preserving)
    #expect(stored.colorProfile == nil || stored.colorProfile == ColorProfile.sRGB)
    #expect(ImageMetadata.read(from: encoded).isEmpty)
    #expect(try Self.containsProfile(encoded, format: format))
    // The pixels were converted before the sRGB tag went on them.
    guard format != .jpeg else { return }
    #expect(Support.maxDifference(Support.rgb(stored.pixels), try Support.reference("p3_png")) <= Support.tolerance)
  }

  @Test func aLargeProfileSpansSeveralJPEGSegments() throws {
    var image = try preservedP3()
    // The P3 profile padded past two segments' worth (ICC readers take the
    // size from the header, so the tail is never read as tags).
    var bytes = try #require(image.colorProfile?.iccData)
    bytes += Data(repeating: 0, count: 140_000)
    image.colorProfile = ColorProfile(iccData: bytes)
    let encoded = try CoderRegistry.shared.encode(image, as: .jpeg)
    #expect(try JPEGCoder().decode(encoded, options: Support.preserving).colorProfile?.iccData == bytes)
  }

  /// Whether the bytes carry an ICC container of their format (APP2
  /// ICC_PROFILE, iCCP, ICCP), found by a plain byte search.
  private static func containsProfile(_ data: Data, format: ImageFormat) throws -> Bool {
    let needle: [UInt8] =
      switch format {
      case .jpeg: JPEGMetadataWriter.iccPrefix
      case .png: Array("iCCP".utf8)
      default: Array("ICCP".utf8)
      }
    return data.firstRange(of: Data(needle)) != nil
  }
}
