import Magpie

/// The sizes one ``TransformOptions`` gives a source of a given size,
/// worked out as imgproxy works them out, so that a URL gives the same
/// result size here as there.
///
/// Sizes are computed in the orientation of the result: a quarter turn
/// (``TransformOptions/rotation`` 90 or 270) swaps the source's sides
/// first, so `rs:fill:300:200/rot:90` is 300x200. The shrink factors are
/// imgproxy's: `source / target` per side (a 0 side keeps the other's
/// factor, or 1 for `force`), the larger of the two for `fit`, the smaller
/// for `fill` and `fill-down`. Without ``TransformOptions/enlarges`` no
/// factor goes below 1 and the device pixel ratio is capped at what the
/// source can give without enlarging (imgproxy's `dprScale`), which then
/// also scales the target and the padding. Sizes round half away from
/// zero (`round(side * scale)`); the padding and offsets, half to even, as
/// imgproxy's `ScaleToEven` does.
public struct TransformGeometry: Sendable, Hashable {
  /// The upright source's size (EXIF orientation applied).
  public let sourceSize: PixelSize
  /// Clockwise quarter turns, 0-3.
  public let quarterTurns: Int
  /// The size the source is resampled to, in the source's orientation
  /// (before the turn); ``sourceSize`` when it is not resized.
  public let scaledSize: PixelSize
  /// The part of the scaled, turned image kept (the whole of it when it
  /// is not cropped).
  public let cropSize: PixelSize
  /// The device pixel ratio in effect: ``TransformOptions/devicePixelRatio``,
  /// capped without enlarging.
  public let pixelRatio: Double
  /// The padding in pixels (CSS pixels times ``pixelRatio``).
  public let padding: Padding
  /// The crop on its extended canvas (``TransformOptions/extends``): each
  /// side grown to the target's (times ``pixelRatio``) where the crop is
  /// smaller and the target side is not 0; ``cropSize`` otherwise.
  public let extendedSize: PixelSize
  /// The size of the result: the extended crop plus the padding.
  public let resultSize: PixelSize

  /// The scaled image turned: what the crop is taken from.
  public var turnedSize: PixelSize { quarterTurns % 2 == 1 ? scaledSize.transposed : scaledSize }

  /// Whether the turned image is cropped.
  public var crops: Bool { cropSize != turnedSize }

  /// The geometry of `options` over a source of `sourceSize` (upright).
  /// Throws `MagpieError.Code.invalidArgument` for a negative size or
  /// padding, a device pixel ratio that is not positive, or a rotation
  /// that is not a multiple of 90 degrees.
  public init(options: TransformOptions, sourceSize: PixelSize) throws(MagpieError) {
    try Self.validate(options)
    guard sourceSize.width > 0, sourceSize.height > 0 else {
      throw MagpieError(.invalidArgument, "transforming an empty \(sourceSize) image")
    }
    self.sourceSize = sourceSize
    quarterTurns = (options.rotation / 90 % 4 + 4) % 4
    let turned = quarterTurns % 2 == 1 ? sourceSize.transposed : sourceSize
    let (srcW, srcH) = (Double(turned.width), Double(turned.height))
    var (wShrink, hShrink) = Self.shrinks(options, width: srcW, height: srcH)
    var ratio = options.devicePixelRatio
    if !options.enlarges {
      // No side may grow: lift both factors to 1 and cap the ratio at what
      // the source still has to give.
      let least = min(wShrink, hShrink)
      if least < 1 {
        wShrink /= least
        hShrink /= least
        ratio /= least
      }
      ratio = min(ratio, min(wShrink, hShrink))
    }
    // A factor over the side's length would leave less than one pixel.
    wShrink = min(wShrink / ratio, srcW)
    hShrink = min(hShrink / ratio, srcH)
    let scaledW = max(1, Self.scale(turned.width, 1 / wShrink))
    let scaledH = max(1, Self.scale(turned.height, 1 / hShrink))
    let turnedScaled = PixelSize(width: scaledW, height: scaledH)
    scaledSize = quarterTurns % 2 == 1 ? turnedScaled.transposed : turnedScaled
    pixelRatio = ratio
    cropSize = Self.cropSize(options, scaled: turnedScaled, ratio: ratio)
    padding = Padding(
      top: Self.scaleToEven(options.padding.top, ratio), right: Self.scaleToEven(options.padding.right, ratio),
      bottom: Self.scaleToEven(options.padding.bottom, ratio), left: Self.scaleToEven(options.padding.left, ratio))
    // imgproxy's extend: the canvas grows to the target, a 0 side keeping
    // the crop's.
    let (targetW, targetH) = (Self.scale(options.width, ratio), Self.scale(options.height, ratio))
    extendedSize =
      options.extends
      ? PixelSize(width: max(cropSize.width, targetW), height: max(cropSize.height, targetH)) : cropSize
    resultSize = PixelSize(
      width: Self.sum(extendedSize.width, padding.left, padding.right),
      height: Self.sum(extendedSize.height, padding.top, padding.bottom))
  }

  /// Where the crop sits on its extended canvas: centred, as imgproxy's
  /// `calcPosition` centres it (`(outer - inner + 1) / 2`, half to even).
  public var extensionOrigin: (x: Int, y: Int) {
    let centre = { (outer: Int, inner: Int) in Int((Double(outer - inner + 1) / 2).rounded(.toNearestOrEven)) }
    return (centre(extendedSize.width, cropSize.width), centre(extendedSize.height, cropSize.height))
  }

  /// imgproxy's shrink factors (source over target) per side.
  private static func shrinks(_ options: TransformOptions, width srcW: Double, height srcH: Double) -> (
    Double, Double
  ) {
    let dstW = options.width == 0 ? srcW : Double(options.width)
    let dstH = options.height == 0 ? srcH : Double(options.height)
    var wShrink = dstW == srcW ? 1 : srcW / dstW
    var hShrink = dstH == srcH ? 1 : srcH / dstH
    guard wShrink != 1 || hShrink != 1 else { return (1, 1) }
    let type = options.resizingType
    if options.width == 0 && type != .force {
      wShrink = hShrink
    } else if options.height == 0 && type != .force {
      hShrink = wShrink
    } else if type == .fit {
      wShrink = max(wShrink, hShrink)
      hShrink = wShrink
    } else if type == .fill || type == .fillDown {
      wShrink = min(wShrink, hShrink)
      hShrink = wShrink
    }
    return (wShrink, hShrink)
  }

  /// The crop of a `scaled` (turned) image: the target size at `ratio`,
  /// no side larger than the image's (a 0 target side keeps the image's);
  /// `fill-down` without enlarging keeps the target's aspect ratio inside
  /// an image smaller than the target.
  private static func cropSize(_ options: TransformOptions, scaled: PixelSize, ratio: Double) -> PixelSize {
    var targetW = scale(options.width, ratio)
    var targetH = scale(options.height, ratio)
    if options.resizingType == .fillDown && !options.enlarges && targetW > 0 && targetH > 0 {
      let diffW = Double(targetW) / Double(scaled.width)
      let diffH = Double(targetH) / Double(scaled.height)
      if diffW > diffH && diffW > 1 {
        targetH = scale(scaled.width, Double(targetH) / Double(targetW))
        targetW = scaled.width
      } else if diffH > diffW && diffH > 1 {
        targetW = scale(scaled.height, Double(targetW) / Double(targetH))
        targetH = scaled.height
      }
    }
    return PixelSize(
      width: targetW == 0 ? scaled.width : max(1, min(targetW, scaled.width)),
      height: targetH == 0 ? scaled.height : max(1, min(targetH, scaled.height)))
  }

  private static func validate(_ options: TransformOptions) throws(MagpieError) {
    let padding = options.padding
    let problem: String? =
      if options.width < 0 || options.height < 0 {
        "a negative size \(options.width)x\(options.height)"
      } else if !(options.devicePixelRatio > 0) || !options.devicePixelRatio.isFinite {
        "a device pixel ratio of \(options.devicePixelRatio)"
      } else if options.rotation % 90 != 0 {
        "a rotation of \(options.rotation) degrees (only multiples of 90)"
      } else if min(padding.top, padding.right, padding.bottom, padding.left) < 0 {
        "a negative padding"
      } else if !(options.blurSigma >= 0) || !options.blurSigma.isFinite {
        "a blur sigma of \(options.blurSigma)"
      } else if !(options.sharpenSigma >= 0) || !options.sharpenSigma.isFinite {
        "a sharpen sigma of \(options.sharpenSigma)"
      } else if !Self.isValid(options.gravity) {
        "gravity \(options.gravity) (a focus point outside 0-1 or an offset that is not finite)"
      } else {
        nil
      }
    if let problem { throw MagpieError(.invalidArgument, "transform options with \(problem)") }
  }

  private static func isValid(_ gravity: Gravity) -> Bool {
    switch gravity {
    case .smart: true
    case .anchor(_, let x, let y): x.isFinite && y.isFinite
    case .focusPoint(let x, let y): (0...1).contains(x) && (0...1).contains(y)
    }
  }

  /// imgproxy's `Scale`: `side * scale` rounded half away from zero, 0 for
  /// 0, saturating instead of overflowing.
  static func scale(_ side: Int, _ scale: Double) -> Int {
    side == 0 ? 0 : clamped((Double(side) * scale).rounded())
  }

  /// imgproxy's `ScaleToEven`: rounded half to even.
  static func scaleToEven(_ side: Int, _ scale: Double) -> Int {
    side == 0 ? 0 : clamped((Double(side) * scale).rounded(.toNearestOrEven))
  }

  private static func clamped(_ value: Double) -> Int {
    // Int(_:) of a huge or NaN double would trap; a size that large fails
    // the result limit anyway.
    value.isFinite ? Int(max(-1e15, min(1e15, value))) : 0
  }

  private static func sum(_ values: Int...) -> Int {
    values.reduce(0) { total, value in
      let (result, overflow) = total.addingReportingOverflow(value)
      return overflow ? Int.max : result
    }
  }
}
