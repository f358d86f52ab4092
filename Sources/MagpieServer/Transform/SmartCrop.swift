import Magpie

/// Where an entropy-based crop (imgproxy's `g:sm`, libvips' `smartcrop`
/// with `interesting=entropy`) puts a window of a given size.
///
/// The window starts as the whole image; while it is wider (taller) than
/// the target, the strip at its left or right (top or bottom) edge with
/// less entropy of luminance is shaved off, a strip of at most an eighth
/// of the excess at a time, so detail pulls the window toward itself. A
/// flat strip has entropy 0, so a window never loses a detailed region
/// while a flat strip is left on the other side. Ties shave the left (top)
/// strip.
///
/// Work is bounded: an image over ``analysisPixels`` is box-reduced by a
/// whole factor first and the window found there is centred back over the
/// full image, so a crop costs a few passes over at most that many pixels.
enum SmartCrop {
  /// The most pixels the entropy search looks at.
  static let analysisPixels = 512 * 512

  /// The top-left corner of the `size` window of `pixels` with the most
  /// detail; `size` must fit inside the image.
  static func origin(of size: PixelSize, in pixels: PixelBuffer) -> (x: Int, y: Int) {
    precondition(size.width <= pixels.width && size.height <= pixels.height, "crop larger than the image")
    if size == pixels.size { return (0, 0) }
    let factor = reductionFactor(for: pixels.size)
    guard factor > 1 else {
      let window = search(luma: LumaPlane(pixels), width: size.width, height: size.height)
      return (window.x, window.y)
    }
    // Search a reduced copy for a window no larger than the target there,
    // then centre the full-size window over it: it then covers what the
    // reduced one chose.
    let reduced = Resampler.boxReduce(pixels, factorX: factor, factorY: factor)
    let window = search(
      luma: LumaPlane(reduced), width: max(1, min(reduced.width, size.width / factor)),
      height: max(1, min(reduced.height, size.height / factor)))
    let centreX = (2 * window.x + window.width) * factor / 2
    let centreY = (2 * window.y + window.height) * factor / 2
    return (
      min(max(0, centreX - size.width / 2), pixels.width - size.width),
      min(max(0, centreY - size.height / 2), pixels.height - size.height)
    )
  }

  /// The smallest whole factor that brings `size` to at most
  /// ``analysisPixels``.
  static func reductionFactor(for size: PixelSize) -> Int {
    var factor = 1
    while ((size.width + factor - 1) / factor) * ((size.height + factor - 1) / factor) > analysisPixels {
      factor += 1
    }
    return factor
  }

  /// Shaves strips off `luma` down to `width` x `height`.
  private static func search(luma: LumaPlane, width: Int, height: Int) -> (
    x: Int, y: Int, width: Int, height: Int
  ) {
    var (left, right, top, bottom) = (0, luma.width, 0, luma.height)
    while right - left > width || bottom - top > height {
      let excessX = right - left - width
      if excessX > 0 {
        let strip = max(1, excessX / 8)
        let leftScore = luma.entropy(x: left..<left + strip, y: top..<bottom)
        let rightScore = luma.entropy(x: right - strip..<right, y: top..<bottom)
        if leftScore <= rightScore { left += strip } else { right -= strip }
      }
      let excessY = bottom - top - height
      if excessY > 0 {
        let strip = max(1, excessY / 8)
        let topScore = luma.entropy(x: left..<right, y: top..<top + strip)
        let bottomScore = luma.entropy(x: left..<right, y: bottom - strip..<bottom)
        if topScore <= bottomScore { top += strip } else { bottom -= strip }
      }
    }
    return (left, top, width, height)
  }
}
