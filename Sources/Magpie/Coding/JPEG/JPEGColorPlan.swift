import CMagpieCodecs
import Foundation

/// What a JPEG decode does about the ICC profile its APP2 markers carry.
///
/// Converting to sRGB: a CMYK image with a CMYK profile converts through
/// it row by row inside ``JPEGDecompressor`` (the profile replaces the
/// naive inversion); an RGB or gray image converts its RGBA rows through
/// ``rgbTransform`` while later rows decode. An sRGB or unusable profile
/// costs nothing and is dropped, as is an untagged image. Preserving: the
/// stored values come out and the profile rides on the image, except a
/// CMYK profile, which does not describe the (naively inverted) RGBA
/// pixels and so is not attached.
struct JPEGColorPlan {
  /// The profile to put in ``Image/colorProfile``.
  var attached: ColorProfile?
  /// The conversion still to run on the RGBA rows.
  var rgbTransform: ColorTransform?

  /// Nothing to do: an untagged image.
  init() {}

  /// The plan for `header`'s profile under `options`; sets the
  /// decompressor's CMYK transform when there is one to use.
  init(header: mp_jpeg_header, options: DecodeOptions, decompressor: JPEGDecompressor) {
    guard let icc = header.icc, header.icc_length > 0 else { return }
    let profile = ColorProfile(iccData: Data(bytes: icc, count: header.icc_length))
    let isCMYK = header.color_space == MP_JPEG_COLOR_CMYK || header.color_space == MP_JPEG_COLOR_YCCK
    guard options.colorManagement == .convertToSRGB else {
      if !isCMYK { attached = profile }
      return
    }
    let outcome = ColorTransformCache.shared.outcome(for: profile, input: isCMYK ? .invertedCMYK : .rgba)
    guard case .transform(let transform) = outcome else { return }
    if isCMYK { decompressor.cmykTransform = transform } else { rgbTransform = transform }
  }

  /// Reads `count` rows of `width` pixels into `base`, `stride` bytes
  /// apart, converting each finished band through `transform` on another
  /// thread while libjpeg decodes the next, so the conversion mostly hides
  /// behind the decode on a machine with a spare core.
  static func readRows(
    _ decompressor: JPEGDecompressor, into base: UnsafeMutableRawPointer, width: Int, count: Int, stride: Int,
    converting transform: ColorTransform
  ) throws(MagpieError) {
    let rowsPerBand = max(16, (1 << 18) / max(width, 1))
    let group = DispatchGroup()
    // Every band must be done with the buffer before it is handed back,
    // even when a later read fails.
    defer { group.wait() }
    let rows = RowBase(base)
    var y = 0
    while y < count {
      let band = y..<min(count, y + rowsPerBand)
      try decompressor.readRows(into: base + y * stride, stride: stride, count: band.count)
      DispatchQueue.global().async(group: group) {
        SRGBConversion.convertRows(
          rows, width: width, rows: band, stride: stride, premultiplied: false, transform: transform, banded: false)
      }
      y = band.upperBound
    }
  }
}
