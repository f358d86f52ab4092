import CAVIF
import Magpie

/// The irot and imir properties of an AVIF as the EXIF orientation that
/// shows the image the same way.
enum AVIFOrientation {
  /// The orientation that turns stored (clean-aperture) pixels upright:
  /// irot (a quarter turn anticlockwise per step) first, then imir (mode 0
  /// exchanges top and bottom, mode 1 left and right), as MIAF orders them.
  static func of(_ image: avifImage) -> ImageOrientation {
    let flags = image.transformFlags
    let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
    let mirror: Int? = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : nil
    switch (angle, mirror) {
    case (0, nil): return .up
    case (1, nil): return .left
    case (2, nil): return .down
    case (3, nil): return .right
    // A half turn and a mirror is the other mirror.
    case (0, 0), (2, 1): return .downMirrored
    case (0, 1), (2, 0): return .upMirrored
    // A quarter turn anticlockwise then top-bottom is a transpose;
    // then left-right, a transverse. A quarter turn clockwise the reverse.
    case (1, 0), (3, 1): return .leftMirrored
    default: return .rightMirrored
    }
  }
}
