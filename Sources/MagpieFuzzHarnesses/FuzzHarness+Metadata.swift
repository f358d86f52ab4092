import Foundation
import Magpie

extension FuzzHarness {
  /// The metadata readers (JPEG APP1, PNG `eXIf`/`iTXt`, WebP `EXIF`/`XMP `
  /// chunks) and the EXIF orientation reader over what they find, and over
  /// the raw bytes as an EXIF block of their own; and the EXIF thumbnail
  /// locator over every prefix length the input's size picks, whose range
  /// must lie inside the bytes it was given.
  static let metadata = FuzzHarness(name: "metadata", seedExtensions: ["jpg", "png", "webp"], maxLength: 64 << 10) {
    data in
    let metadata = ImageMetadata.read(from: data, isOrientationApplied: data.count % 2 == 0)
    _ = metadata.isEmpty
    for block in [metadata.exif, data].compactMap({ $0 }) {
      _ = block.withUnsafeBytes { EXIFOrientationReader.orientation(inEXIF: $0) }
    }
    for cut in [data.count, data.count / 2, data.count / 3] {
      data.prefix(cut).withUnsafeBytes { bytes in
        if case .found(let range, _) = EXIFThumbnailLocator.locate(in: bytes) {
          precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "thumbnail range outside the bytes")
        }
      }
    }
  }
}
