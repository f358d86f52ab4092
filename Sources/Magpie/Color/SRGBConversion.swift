import Foundation

/// Where decoding converts tagged pixels to sRGB: every path out of the
/// coders (``CoderRegistry/decode(_:options:)``, on-demand animation
/// frames, the JPEG thumbnail decoder) ends here, so any coder, built in or
/// registered, only has to attach the profile it read.
package enum SRGBConversion {
  /// Images at least this many pixels are converted in row bands on every core.
  static let bandedPixelCount = 1 << 18

  /// `image` as `options` ask: with ``ColorManagement/convertToSRGB`` its
  /// frames converted and the profile dropped (an unusable profile is
  /// dropped and the pixels kept: see ``ColorProfile``); with
  /// ``ColorManagement/preserve`` unchanged.
  static func apply(to image: inout Image, options: DecodeOptions, cache: ColorTransformCache = .shared) {
    guard options.colorManagement == .convertToSRGB, let profile = image.colorProfile else { return }
    image.colorProfile = nil
    // An on-demand animation converts its frames as they are decoded.
    guard image.animation == nil, case .transform(let transform) = cache.outcome(for: profile, input: .rgba)
    else { return }
    for index in image.frames.indices { convert(&image.frames[index].pixels, with: transform) }
  }

  /// `pixels` in `profile` converted to sRGB when `options` ask for it
  /// (what frame sources' frames go through).
  static func converted(
    _ pixels: PixelBuffer, profile: ColorProfile?, options: DecodeOptions, cache: ColorTransformCache = .shared
  ) -> PixelBuffer {
    guard options.colorManagement == .convertToSRGB, let profile,
      case .transform(let transform) = cache.outcome(for: profile, input: .rgba)
    else { return pixels }
    var result = pixels
    convert(&result, with: transform)
    return result
  }

  /// Converts `pixels` in place through `transform`, in bands across the
  /// cores when the image is large.
  package static func convert(_ pixels: inout PixelBuffer, with transform: ColorTransform) {
    let (width, height, stride) = (pixels.width, pixels.height, pixels.bytesPerRow)
    let premultiplied = pixels.alphaRepresentation == .premultiplied && !pixels.isOpaque
    // Alpha is carried as it is, so opacity holds.
    pixels.withUnsafeMutableBytes(keepsOpaque: true) { (raw: UnsafeMutableRawBufferPointer) in
      guard let base = raw.baseAddress else { return }
      convertRows(
        RowBase(base), width: width, rows: 0..<height, stride: stride, premultiplied: premultiplied,
        transform: transform)
    }
  }

  /// Converts `rows` of the image at `base`, split into bands over the
  /// cores (with `banded`) when there are enough pixels to pay for it.
  static func convertRows(
    _ base: RowBase, width: Int, rows: Range<Int>, stride: Int, premultiplied: Bool, transform: ColorTransform,
    banded: Bool = true
  ) {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let large = banded && width * rows.count >= bandedPixelCount
    let bands = large ? min(cores, max(1, rows.count / 16)) : 1
    let perBand = (rows.count + bands - 1) / max(bands, 1)
    let work: @Sendable (Int) -> Void = { band in
      let first = rows.lowerBound + band * perBand
      let count = min(perBand, rows.upperBound - first)
      guard count > 0 else { return }
      transform.apply(
        to: base.pointer + first * stride, width: width, height: count, stride: stride,
        premultiplied: premultiplied)
    }
    if bands <= 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: bands, execute: work) }
  }
}

/// The start of an image's rows, handed to the threads that convert
/// disjoint bands of them.
///
/// `@unchecked Sendable`: each thread writes only its own rows, and the
/// caller waits for every band before the buffer is used again.
struct RowBase: @unchecked Sendable {
  /// The first row's first byte.
  let pointer: UnsafeMutableRawPointer

  /// Rows starting at `pointer`.
  init(_ pointer: UnsafeMutableRawPointer) {
    self.pointer = pointer
  }
}
