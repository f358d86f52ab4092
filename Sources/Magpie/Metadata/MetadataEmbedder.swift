import Foundation

/// Writes the colour profile and metadata an ``EncodeOptions`` asks for
/// into what an encoder produced: JPEG segments, PNG chunks, WebP chunks.
/// GIF has no place for either, so a GIF is written without them.
package enum MetadataEmbedder {
  /// `encoded` (`image` encoded as `format`) with the profile of
  /// ``EncodeOptions/colorProfile`` and, with
  /// ``EncodeOptions/keepsMetadata``, the image's EXIF (orientation reset
  /// when the pixels were turned) and XMP; unchanged when there is nothing
  /// to write.
  static func embed(
    in encoded: Data, image: Image, format: ImageFormat, options: EncodeOptions
  ) throws(MagpieError) -> Data {
    let icc = try profile(for: image, options: options)
    let metadata = options.keepsMetadata ? image.metadata : nil
    let exif = metadata?.exifToWrite
    let xmp = metadata?.xmp
    if icc == nil && exif == nil && xmp == nil { return encoded }
    switch format {
    case .jpeg: return try JPEGMetadataWriter.embed(in: encoded, icc: icc, exif: exif, xmp: xmp)
    case .png, .apng: return try PNGMetadataWriter.embed(in: encoded, icc: icc, exif: exif, xmp: xmp)
    case .webp: return try WebPMetadataWriter.embed(in: encoded, icc: icc, exif: exif, xmp: xmp)
    default: return encoded
    }
  }

  /// `image` ready for an encode that embeds sRGB: pixels in another
  /// profile converted to sRGB first, so the tag tells the truth.
  static func preparing(_ image: Image, options: EncodeOptions) -> Image {
    guard options.colorProfile == .sRGB, image.colorProfile != nil else { return image }
    var converted = image
    SRGBConversion.apply(to: &converted, options: DecodeOptions())
    return converted
  }

  /// The ICC bytes to embed for `image`, if any (coders that write their
  /// own container, such as AVIF's, ask here).
  package static func profile(for image: Image, options: EncodeOptions) throws(MagpieError) -> Data? {
    switch options.colorProfile {
    case .none: nil
    case .original: image.colorProfile?.iccData
    case .sRGB: ColorProfile.sRGB.iccData
    }
  }
}
