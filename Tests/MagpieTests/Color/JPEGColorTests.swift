import Foundation
import Testing

@testable import Magpie

/// Tagged JPEGs decode to the sRGB lcms2 (through Pillow's ImageCms) makes
/// of their stored values; untagged and sRGB ones decode as before.
@Suite struct JPEGColorTests {
  typealias Support = ColorTestSupport

  @Test(arguments: ["p3", "adobe", "cmyk"])
  func taggedPhotosMatchTheReference(name: String) throws {
    let image = try CoderRegistry.shared.decode(try Support.fixture(name + ".jpg"))
    #expect(image.pixelSize == Support.size)
    #expect(image.colorProfile == nil)
    #expect(image.pixels.isOpaque)
    let difference = Support.maxDifference(Support.rgb(image.pixels), try Support.reference(name))
    #expect(difference <= Support.tolerance, "\(name): \(difference)")
  }

  /// The conversion is not a no-op: P3 and the CMYK profile move colours
  /// well past the tolerance.
  @Test(arguments: ["p3", "cmyk"])
  func preservingKeepsTheStoredValuesAndTheProfile(name: String) throws {
    let data = try Support.fixture(name + ".jpg")
    let kept = try CoderRegistry.shared.decode(data, options: Support.preserving)
    let converted = try CoderRegistry.shared.decode(data)
    #expect(Support.maxDifference(Support.rgb(kept.pixels), Support.rgb(converted.pixels)) > 8)
    if name == "p3" {
      #expect(kept.colorProfile == (try Support.profile("p3")))
    } else {
      // A CMYK profile does not describe the (naively inverted) RGBA pixels.
      #expect(kept.colorProfile == nil)
    }
  }

  /// p3.jpg spreads its profile over three APP2 markers.
  @Test func multiMarkerProfileIsAssembled() throws {
    let image = try JPEGCoder().decode(try Support.fixture("p3.jpg"), options: Support.preserving)
    #expect(image.colorProfile == (try Support.profile("p3")))
  }

  /// The untagged photo decodes exactly as Pillow does (the JPEG suite's
  /// reference), with or without colour management.
  @Test func untaggedDecodeIsUnchanged() throws {
    let data = try TestPaths.fixture("jpeg/photo96.jpg")
    let reference = [UInt8](try TestPaths.fixture("jpeg/photo96.rgb"))
    for options in [DecodeOptions(), Support.preserving] {
      let image = try CoderRegistry.shared.decode(data, options: options)
      #expect(Support.rgb(image.pixels) == reference)
      #expect(image.colorProfile == nil)
    }
  }

  /// Without a profile, CMYK keeps the naive inversion, bit for bit.
  @Test func untaggedCMYKKeepsTheNaiveInversion() throws {
    let data = try TestPaths.fixture("jpeg/cmyk_adobe.jpg")
    let reference = [UInt8](try TestPaths.fixture("jpeg/cmyk_adobe.rgb"))
    let image = try CoderRegistry.shared.decode(data)
    #expect(Support.maxDifference(Support.rgb(image.pixels), reference) <= 1)
    let preserved = try CoderRegistry.shared.decode(data, options: Support.preserving)
    #expect(preserved.pixels == image.pixels)
  }

  @Test func sRGBTaggedDecodesAsStored() throws {
    let data = try Support.fixture("srgb.jpg")
    let image = try CoderRegistry.shared.decode(data)
    #expect(Support.rgb(image.pixels) == (try Support.reference("srgb")))
    #expect(image.colorProfile == nil)
  }

  /// A profile cut short decodes without conversion (as browsers show an
  /// image whose profile does not parse): the stored values, no profile.
  @Test func corruptProfileDecodesUnconverted() throws {
    let data = try Support.fixture("corrupt.jpg")
    let image = try CoderRegistry.shared.decode(data)
    #expect(Support.rgb(image.pixels) == (try Support.reference("corrupt")))
    #expect(image.colorProfile == nil)
  }

  /// Downsampling decodes through the streaming JPEG thumbnail path, which
  /// bypasses the registry: it converts too.
  @Test func thumbnailsAreConverted() throws {
    let data = try Support.fixture("p3.jpg")
    let processor = ImageProcessors.Downsampling(size: PixelSize(width: 48, height: 32))
    let converted = try processor.process(item: .data(data), options: ImageProcessingOptions())
    var preserving = ImageProcessingOptions()
    preserving.decodeOptions.colorManagement = .preserve
    let kept = try processor.process(item: .data(data), options: preserving)
    #expect(converted.pixelSize == PixelSize(width: 48, height: 32))
    #expect(converted.colorProfile == nil)
    #expect(kept.colorProfile == (try Support.profile("p3")))
    // 48x32 is libjpeg's 1/2 scale: the reference is Pillow's draft decode, converted.
    let reference = try Support.reference("p3_half")
    #expect(Support.maxDifference(Support.rgb(converted.pixels), reference) <= Support.tolerance)
    #expect(Support.maxDifference(Support.rgb(kept.pixels), Support.rgb(converted.pixels)) > 8)
  }

  /// Resizing decodes at a target size through the registry: converted too.
  @Test func resizedImagesAreConverted() throws {
    let data = try Support.fixture("p3.jpg")
    let processor = ImageProcessors.Resizing(size: PixelSize(width: 48, height: 32))
    let converted = try processor.process(item: .data(data), options: ImageProcessingOptions())
    var preserving = ImageProcessingOptions()
    preserving.decodeOptions.colorManagement = .preserve
    let kept = try processor.process(item: .data(data), options: preserving)
    #expect(converted.colorProfile == nil)
    #expect(Support.maxDifference(Support.rgb(kept.pixels), Support.rgb(converted.pixels)) > 8)
  }
}
