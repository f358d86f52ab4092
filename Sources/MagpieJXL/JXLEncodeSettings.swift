import Magpie

/// What ``EncodeOptions`` amount to for libjxl 0.7's encoder: the
/// Butteraugli distance, the effort, and the size limits checked before
/// any encoder buffer is made.
struct JXLEncodeSettings {
  /// Largest width or height: the codestream's level 5 (the one every
  /// decoder must support) allows 2^18.
  static let maxDimension = 1 << 18
  /// Largest pixel count a frame may have at level 5: 2^28.
  static let maxPixelCount = 1 << 28
  /// The effort libjxl (and cjxl) use when none is given ("squirrel").
  static let defaultEffort = 7
  /// The largest distance libjxl 0.7 accepts.
  static let maxDistance: Float = 15

  /// Target Butteraugli distance (0 with lossless).
  let distance: Float
  /// libjxl's effort, 1 (fastest) to 9 (slowest, smallest).
  let effort: Int
  /// Lossless: modular mode, the original colour space kept.
  let lossless: Bool

  /// The settings `options` ask for.
  init(_ options: EncodeOptions) {
    lossless = options.lossless
    distance = lossless ? 0 : Self.distance(quality: options.quality)
    effort = Self.effort(speed: options.speed)
  }

  /// cjxl 0.7's mapping of quality to distance: from quality 30 up,
  /// 0.1 + (100 - q) * 0.09 (quality 90 is distance 1, "visually
  /// lossless"); below, 53/3000 q^2 - 23/20 q + 25, which meets the line at
  /// 30 (distance 6.4), capped at the 15 libjxl 0.7 accepts. Quality 100 is
  /// distance 0.1, not lossless: that is ``EncodeOptions/lossless``.
  static func distance(quality: Int) -> Float {
    let q = Double(min(max(quality, 0), 100))
    let d = q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000.0 * q * q - 23.0 / 20.0 * q + 25.0
    return min(Float(d), maxDistance)
  }

  /// ``EncodeOptions/speed`` (0 slowest to 10 fastest, as for AVIF) as
  /// libjxl's effort (9 slowest to 1 fastest): 10 - speed, clamped to 1-9;
  /// effort 7 without a speed.
  static func effort(speed: Int?) -> Int {
    guard let speed else { return defaultEffort }
    return min(max(10 - speed, 1), 9)
  }

  /// Throws ``MagpieError/Code/imageTooLarge`` for a size libjxl's level 5
  /// does not allow (or an empty one), before anything is allocated.
  static func checkSize(_ size: PixelSize) throws(MagpieError) {
    guard size.width > 0, size.height > 0 else {
      throw MagpieError(.invalidArgument, "jxl: cannot write an empty \(size) image")
    }
    guard size.width <= maxDimension, size.height <= maxDimension, size.pixelCount <= maxPixelCount else {
      throw MagpieError(
        .imageTooLarge, "jxl: cannot write a \(size) image (at most \(maxDimension) a side, \(maxPixelCount) pixels)")
    }
  }
}
