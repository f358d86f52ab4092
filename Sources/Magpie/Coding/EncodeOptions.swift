/// How to encode an image.
public struct EncodeOptions: Sendable {
  /// Lossy quality, 0 (smallest) to 100 (best); JPEG, lossy WebP, AVIF,
  /// HEIC and JPEG XL.
  public var quality: Int
  /// Encode WebP, AVIF, HEIC or JPEG XL losslessly instead of with `quality`.
  public var lossless: Bool
  /// Write a progressive JPEG.
  public var progressive: Bool
  /// Encode only the first frame of an animation.
  public var firstFrameOnly: Bool
  /// zlib level for PNG, 0-9.
  public var compressionLevel: Int
  /// Which colour profile to embed (JPEG, PNG, WebP, AVIF, HEIC, JPEG XL):
  /// by default the one the pixels are in when it is not sRGB.
  public var colorProfile = ProfileEmbedding.original
  /// Write the image's EXIF and XMP (``Image/metadata``, kept by a decode
  /// with ``DecodeOptions/keepsMetadata``) into JPEG, PNG, WebP and JPEG
  /// XL (HEIC: the EXIF only), the EXIF orientation reset to upright when
  /// the pixels were turned.
  /// Default `false`: re-encoded images (thumbnails) carry no camera data,
  /// location or other metadata.
  public var keepsMetadata = false
  /// Encoder speed for AVIF (AV1), HEIC (x265's preset) and JPEG XL
  /// (effort 10 - speed), 0 (slowest, smallest files) to 10 (fastest);
  /// `nil` (the default) uses the coder's default (AVIF 6, what `avifenc`
  /// uses; x265's "slow"; JPEG XL effort 7). Other formats ignore it.
  public var speed: Int? = nil

  /// Quality 85, lossy, baseline, every frame, zlib level 6.
  public init(
    quality: Int = 85, lossless: Bool = false, progressive: Bool = false, firstFrameOnly: Bool = false,
    compressionLevel: Int = 6
  ) {
    self.quality = quality
    self.lossless = lossless
    self.progressive = progressive
    self.firstFrameOnly = firstFrameOnly
    self.compressionLevel = compressionLevel
  }
}

/// Which colour profile an encoder embeds.
public enum ProfileEmbedding: String, Sendable, Hashable, CaseIterable {
  /// None: the file is untagged, which readers take as sRGB.
  case none
  /// The profile the pixels are in (``Image/colorProfile``, kept by a
  /// ``ColorManagement/preserve`` decode); nothing for sRGB pixels, which
  /// need no tag. The default.
  case original
  /// An sRGB profile, for readers that treat untagged images otherwise.
  /// Pixels in another profile are converted to sRGB first.
  case sRGB
}
