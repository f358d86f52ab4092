import Foundation
import Magpie

extension FuzzHarness {
  /// The metadata readers (JPEG APP1, PNG `eXIf`/`iTXt`, WebP `EXIF`/`XMP `
  /// chunks) and the EXIF orientation reader over what they find, and over
  /// the raw bytes as an EXIF block of their own.
  static let metadata = FuzzHarness(name: "metadata", seedExtensions: ["jpg", "png", "webp"], maxLength: 64 << 10) {
    data in
    let metadata = ImageMetadata.read(from: data, isOrientationApplied: data.count % 2 == 0)
    _ = metadata.isEmpty
    for block in [metadata.exif, data].compactMap({ $0 }) {
      _ = block.withUnsafeBytes { EXIFOrientationReader.orientation(inEXIF: $0) }
    }
  }
}
