import CJXL
import Foundation
import Magpie

/// What a JPEG XL file's headers say, read without decoding pixels: the
/// basic info, the colour profile, and every displayed frame's duration
/// (libjxl skips frame data when no image is asked for).
struct JXLHeader {
  /// The canvas as stored (before orientation).
  var storedSize: PixelSize
  /// The EXIF-style orientation libjxl applies.
  var orientation: ImageOrientation
  /// Whether the file is an animation.
  var isAnimated: Bool
  /// Times the animation plays, 0 for forever.
  var loopCount: Int
  /// Each displayed frame's duration.
  var durations: [Duration]
  /// Whether there is an alpha channel.
  var hasAlpha: Bool
  /// The profile the pixels come out in, `nil` for sRGB.
  var colorProfile: ColorProfile?
  /// Whether the file ended before its last frame header or frame did
  /// (the frames in ``durations`` are those whose headers were read).
  var endsEarly = false

  /// The size frames come out at: oriented unless `keepsOrientation`.
  func canvas(keepsOrientation: Bool) -> PixelSize {
    keepsOrientation ? storedSize : orientation.displayedSize(of: storedSize)
  }

  /// Reads the headers of `data`; with `framesToo` false, stops after the
  /// colour encoding (enough for a still decode). With `limits`, the canvas
  /// is checked against its pixel limit as soon as the basic info is read,
  /// before libjxl reads any frame's table of contents (whose size follows
  /// the declared size).
  static func read(
    _ data: Data, framesToo: Bool = true, limits: DecodeOptions? = nil
  ) throws(MagpieError) -> JXLHeader {
    var events = [JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING]
    if framesToo { events.append(JXL_DEC_FRAME) }
    // Kept as stored: with orientation applied, libjxl's basic info reports
    // the turned size and orientation 1, and the file's orientation is lost.
    let session = try JXLSession(data, events: events, keepsOrientation: true)
    var header: JXLHeader?
    var ticks = (numerator: UInt32(0), denominator: UInt32(1))
    while true {
      let status = session.process()
      switch status {
      case JXL_DEC_BASIC_INFO:
        let info = try session.basicInfo()
        header = JXLHeader(
          storedSize: PixelSize(width: Int(info.xsize), height: Int(info.ysize)),
          orientation: ImageOrientation(rawValue: Int(info.orientation.rawValue)) ?? .up,
          isAnimated: info.have_animation != 0, loopCount: Int(info.animation.num_loops), durations: [],
          hasAlpha: info.alpha_bits > 0, colorProfile: nil)
        ticks = (info.animation.tps_numerator, info.animation.tps_denominator)
        if let limits, let header {
          let canvas = header.canvas(keepsOrientation: !limits.appliesOrientation)
          try limits.checkPixelLimit(decoded: canvas, declared: canvas)
        }
      case JXL_DEC_COLOR_ENCODING:
        header?.colorProfile = session.colorProfile()
        if !framesToo, let header { return header }
      case JXL_DEC_FRAME:
        header?.durations.append(duration(ticks: session.frameDuration(), per: ticks))
        // Counted as the frame headers come: one past the limit refuses.
        if let limits, let count = header?.durations.count, count > limits.maxFrameCount {
          try limits.checkFrameCount(count, format: "jxl")
        }
      case JXL_DEC_SUCCESS:
        guard let header, !header.durations.isEmpty else { throw MagpieError(.corruptData, "jxl: no frames") }
        return header
      case JXL_DEC_NEED_MORE_INPUT:
        // Past the colour encoding, what was read still describes the image.
        guard var header, framesToo, !header.durations.isEmpty else {
          throw MagpieError(.truncatedData, "jxl: the file ends inside its headers")
        }
        header.endsEarly = true
        return header
      default:
        throw MagpieError(.corruptData, "jxl: libjxl could not read the headers")
      }
    }
  }

  /// `ticks` frames of `1 / (numerator / denominator)` seconds; zero for
  /// stills (no tick rate). Computed in full width: a file may declare any
  /// 32-bit tick count and rate (the fuzzer found one whose product
  /// overflowed 64 bits), and a duration past what `Duration` holds in
  /// nanoseconds is clamped there.
  static func duration(ticks: UInt32, per rate: (numerator: UInt32, denominator: UInt32)) -> Duration {
    guard rate.numerator > 0 else { return .zero }
    // Both factors are below 2^32: their product fits in 64 bits.
    let product = UInt64(ticks) * UInt64(rate.denominator)
    let wide = product.multipliedFullWidth(by: 1_000_000_000)
    let numerator = UInt64(rate.numerator)
    guard wide.high < numerator else { return .nanoseconds(Int64.max) }
    return .nanoseconds(Int64(clamping: numerator.dividingFullWidth(wide).quotient))
  }
}
