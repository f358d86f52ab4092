import CAVIF
import Magpie

/// The clean aperture (clap) of an AVIF as a rectangle of stored pixels.
struct AVIFCrop: Equatable {
  /// The left column.
  var x: Int
  /// The top row.
  var y: Int
  /// The width in pixels.
  var width: Int
  /// The height in pixels.
  var height: Int

  /// The size of the rectangle.
  var size: PixelSize { PixelSize(width: width, height: height) }

  /// The clean aperture `image` declares, `nil` when it declares none;
  /// throws ``MagpieError/Code/corruptData`` when its fractions make no
  /// rectangle inside the image (libavif's strict parse refuses those
  /// first, so this is a second line).
  static func of(_ image: UnsafeMutablePointer<avifImage>) throws(MagpieError) -> AVIFCrop? {
    guard image.pointee.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 else { return nil }
    var rect = avifCropRect()
    var diag = avifDiagnostics()
    var clap = image.pointee.clap
    guard
      avifCropRectConvertCleanApertureBox(
        &rect, &clap, image.pointee.width, image.pointee.height, image.pointee.yuvFormat, &diag) != 0
    else {
      throw MagpieError(.corruptData, "avif clean aperture is not a valid crop (\(AVIFStatus.text(&diag)))")
    }
    return AVIFCrop(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height))
  }
}
