/// How the stored pixels must be turned to appear upright, with the EXIF
/// orientation numbers (1-8) as raw values.
///
/// Decoders apply it, so a decoded ``Image`` is always upright; the value the
/// file carried stays readable as ``Image/orientation``.
public enum ImageOrientation: Int, Sendable, CaseIterable {
  /// 1: stored upright.
  case up = 1
  /// 2: stored mirrored left to right.
  case upMirrored = 2
  /// 3: stored upside down.
  case down = 3
  /// 4: stored mirrored top to bottom.
  case downMirrored = 4
  /// 5: stored transposed (mirrored across the top-left to bottom-right diagonal).
  case leftMirrored = 5
  /// 6: stored turned a quarter counter-clockwise; shown turned 90° clockwise.
  case right = 6
  /// 7: stored transversed (mirrored across the other diagonal).
  case rightMirrored = 7
  /// 8: stored turned a quarter clockwise; shown turned 90° counter-clockwise.
  case left = 8

  /// Whether showing the image upright exchanges its width and height.
  public var swapsDimensions: Bool { rawValue >= 5 }

  /// The upright size of stored pixels of size `stored`.
  public func displayedSize(of stored: PixelSize) -> PixelSize {
    swapsDimensions ? stored.transposed : stored
  }
}
