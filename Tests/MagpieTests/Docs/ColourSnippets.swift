import Foundation
import Magpie

/// The code the Colour article quotes, compiled with the tests.
enum ColourSnippets {
  /// The article's preserving decode: stored values and the profile kept.
  static func preserve(_ data: Data) throws -> Image {
    // snippet.begin colour-preserve
    var options = DecodeOptions()
    options.colorManagement = .preserve
    let image = try CoderRegistry.shared.decode(data, options: options)
    if let profile = image.colorProfile {
      print("the pixels are in a \(profile.iccData.count)-byte ICC profile")
    }
    // snippet.end
    return image
  }

  /// The article's manager that keeps every image's profile.
  static func preservingManager() throws -> ImageManager {
    // snippet.begin colour-manager
    var configuration = try ImageManager.Configuration.standard(namespace: "proofs")
    configuration.decodeLimits.colorManagement = .preserve
    let manager = ImageManager(configuration: configuration)
    // snippet.end
    return manager
  }

  /// The article's three ways to tag an encode of `image`.
  static func encodeProfiles(_ image: Image) throws -> [Data] {
    // snippet.begin colour-encode
    var options = EncodeOptions(quality: 90)
    options.colorProfile = .original  // the profile the pixels are in; none for sRGB
    let asStored = try CoderRegistry.shared.encode(image, as: .jpeg, options: options)
    options.colorProfile = .sRGB  // converted to sRGB first, then tagged sRGB
    let tagged = try CoderRegistry.shared.encode(image, as: .jpeg, options: options)
    options.colorProfile = .none  // untagged: readers take it as sRGB
    let untagged = try CoderRegistry.shared.encode(image, as: .webp, options: options)
    // snippet.end
    return [asStored, tagged, untagged]
  }

  /// The article's decode that leaves the pixels as stored, turned later.
  static func turnLater(_ data: Data) throws -> PixelBuffer {
    // snippet.begin colour-orientation
    let stored = try CoderRegistry.shared.decode(data, options: DecodeOptions(appliesOrientation: false))
    print(stored.orientation)  // e.g. right: the camera was held on its side
    let upright = stored.pixels.applying(stored.orientation)
    // snippet.end
    return upright
  }

  /// The article's re-encode that keeps the camera's EXIF and XMP.
  static func keepMetadata(_ data: Data) throws -> Data {
    // snippet.begin colour-metadata
    var decode = DecodeOptions()
    decode.keepsMetadata = true
    let photo = try CoderRegistry.shared.decode(data, options: decode)
    var encode = EncodeOptions(quality: 85)
    encode.keepsMetadata = true  // EXIF and XMP written again, the orientation reset to 1
    let jpeg = try CoderRegistry.shared.encode(photo, as: .jpeg, options: encode)
    // snippet.end
    return jpeg
  }
}
