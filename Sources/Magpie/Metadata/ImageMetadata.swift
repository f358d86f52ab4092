import Foundation

/// The EXIF and XMP blocks an image file carried, kept when decoding with
/// ``DecodeOptions/keepsMetadata`` so that an encode with
/// ``EncodeOptions/keepsMetadata`` can write them again.
public struct ImageMetadata: Sendable, Hashable {
  /// The EXIF block as TIFF bytes (`II*\0` or `MM\0*` first), without the
  /// `Exif\0\0` prefix a JPEG's APP1 segment puts before it.
  public var exif: Data?
  /// The XMP packet, UTF-8 XML.
  public var xmp: Data?
  /// Whether the decoded pixels were turned upright as the EXIF orientation
  /// said; an encode that keeps the EXIF then resets its orientation to 1
  /// so that nothing turns the pixels a second time.
  public var isOrientationApplied: Bool
  /// A cursor's hotspot (`.cur` files), set whether or not
  /// ``DecodeOptions/keepsMetadata`` asks for the rest; no encoder writes it.
  public var cursorHotspot: CursorHotspot?
  /// For a video's poster frame, the video's duration, frame rate and
  /// codec and the frame's time; set whether or not
  /// ``DecodeOptions/keepsMetadata`` asks for the rest.
  public var video: VideoMetadata?

  /// Metadata of the given blocks.
  public init(
    exif: Data? = nil, xmp: Data? = nil, isOrientationApplied: Bool = true, cursorHotspot: CursorHotspot? = nil
  ) {
    self.exif = exif
    self.xmp = xmp
    self.isOrientationApplied = isOrientationApplied
    self.cursorHotspot = cursorHotspot
  }

  /// Whether there is neither EXIF nor XMP (nothing an encoder would write).
  public var isEmpty: Bool { exif == nil && xmp == nil }

  /// The EXIF block to write: orientation reset to 1 (upright) when the
  /// pixels were turned.
  package var exifToWrite: Data? {
    guard let exif else { return nil }
    return isOrientationApplied ? EXIFOrientationWriter.settingUpright(exif) : exif
  }

  /// The metadata in the encoded `data` (JPEG APP1, PNG `eXIf`/`iTXt`,
  /// WebP `EXIF`/`XMP ` chunks; nothing for other formats). Reads only the
  /// container's headers, bounds-checking every length.
  public static func read(from data: Data, isOrientationApplied: Bool = true) -> ImageMetadata {
    var metadata =
      switch ImageFormat.sniff(data) {
      case .jpeg: JPEGMetadataReader.read(data)
      case .png, .apng: PNGMetadataReader.read(data)
      case .webp: WebPMetadataReader.read(data)
      default: ImageMetadata()
      }
    metadata.isOrientationApplied = isOrientationApplied
    return metadata
  }

  /// The `Exif\0\0` prefix of a JPEG APP1 segment.
  static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
  /// The namespace that starts a JPEG APP1 segment holding XMP.
  static let xmpNamespace: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

  /// `block` without a leading `Exif\0\0` (some WebP and PNG writers keep it).
  static func tiff(_ block: Data) -> Data {
    block.starts(with: exifPrefix) ? Data(block.dropFirst(exifPrefix.count)) : block
  }
}

/// Rewrites the orientation tag (0x0112) of an EXIF block.
enum EXIFOrientationWriter {
  /// `tiff` (TIFF-structured EXIF) with its orientation set to 1 (upright),
  /// or unchanged when it has no orientation tag or does not parse (every
  /// offset is bounds-checked).
  static func settingUpright(_ tiff: Data) -> Data {
    var bytes = [UInt8](tiff)
    guard let entry = bytes.withUnsafeBytes({ EXIFOrientationReader.orientationEntry(inTIFF: $0) }) else { return tiff }
    bytes[entry.valueOffset] = entry.littleEndian ? 1 : 0
    bytes[entry.valueOffset + 1] = entry.littleEndian ? 0 : 1
    return Data(bytes)
  }
}
