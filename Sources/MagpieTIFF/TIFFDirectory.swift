import CTIFF
import CTIFFLoader
import Foundation
import Magpie

/// What one TIFF directory (an image: a page, or a reduced-resolution
/// copy of one) declares, read from its tags without decoding pixels.
struct TIFFDirectory {
  /// Where a directory is: the `index`th of the main chain, or a SubIFD
  /// at a file offset.
  enum Location: Equatable, CustomStringConvertible {
    /// The `index`th directory of the main chain (0 is the first page).
    case chain(Int)
    /// A SubIFD at `offset` bytes into the file.
    case subIFD(UInt64)

    var description: String {
      switch self {
      case .chain(let index): "\(index)"
      case .subIFD(let offset): "SubIFD at \(offset)"
      }
    }
  }

  /// Where the directory is.
  let location: Location
  /// Its stored size in pixels.
  let size: PixelSize
  /// Its Orientation tag (1 when absent or out of range).
  let orientation: ImageOrientation
  /// Whether NewSubfileType says it is a reduced-resolution copy of another
  /// image (bit 0).
  let isReduced: Bool
  /// Its Photometric tag (`nil` when absent: TIFFRGBAImage then refuses
  /// some files and guesses for others).
  let photometric: UInt16?
  /// The offsets of its SubIFDs.
  let subIFDs: [UInt64]
  /// Its strips, or tiles when tiled, as the tags imply.
  let chunkCount: Int

  /// Reads libtiff's current directory, which is at `location`.
  init(_ file: TIFFFile, at location: Location) {
    let tiff = file.tiff
    self.location = location
    var width: UInt32 = 0
    var height: UInt32 = 0
    _ = mp_tiff_get_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &width)
    _ = mp_tiff_get_u32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &height)
    size = PixelSize(width: Int(width), height: Int(height))
    var orientation: UInt16 = 1
    _ = mp_tiff_get_u16_defaulted(tiff, UInt32(TIFFTAG_ORIENTATION), &orientation)
    self.orientation = ImageOrientation(rawValue: Int(orientation)) ?? .up
    var subfileType: UInt32 = 0
    _ = mp_tiff_get_u32(tiff, UInt32(TIFFTAG_SUBFILETYPE), &subfileType)
    isReduced = subfileType & UInt32(FILETYPE_REDUCEDIMAGE) != 0
    var photometric: UInt16 = 0
    self.photometric = mp_tiff_get_u16(tiff, UInt32(TIFFTAG_PHOTOMETRIC), &photometric) != 0 ? photometric : nil
    var count: UInt16 = 0
    var offsets: UnsafePointer<UInt64>?
    if mp_tiff_get_subifds(tiff, &count, &offsets) != 0, let offsets {
      subIFDs = Array(UnsafeBufferPointer(start: offsets, count: Int(count)))
    } else {
      subIFDs = []
    }
    chunkCount = Int(TIFFIsTiled(tiff) != 0 ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff))
  }

  /// The directory's ICC profile, read from libtiff's current directory
  /// (which must be this one). `nil` for CMYK: the naive conversion
  /// TIFFRGBAImage makes is not what the profile describes (as a CMYK
  /// JPEG's profile is not attached either).
  func colorProfile(_ file: TIFFFile) -> ColorProfile? {
    guard photometric != UInt16(PHOTOMETRIC_SEPARATED) else { return nil }
    var count: UInt32 = 0
    var bytes: UnsafeRawPointer?
    guard mp_tiff_get_icc(file.tiff, &count, &bytes) != 0, let bytes, count > 0 else { return nil }
    return ColorProfile(iccData: Data(bytes: bytes, count: Int(count)))
  }

  /// Whether this directory could be a reduced copy of `page`: no larger on
  /// either side, and of the same shape within a pixel of rounding.
  func reduces(_ page: TIFFDirectory) -> Bool {
    guard size.width > 0, size.height > 0, size.width <= page.size.width, size.height <= page.size.height
    else { return false }
    // In Double: two 32-bit sides multiplied overflow Int.
    let skew = abs(
      Double(size.width) * Double(page.size.height) - Double(size.height) * Double(page.size.width))
    return skew <= Double(max(page.size.width, page.size.height))
  }
}
