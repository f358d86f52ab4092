/// The canvas a vector image (SVG, PDF page) is drawn on: its pixel size,
/// and the scale from the document's own units, from its intrinsic size
/// and the decode options.
///
/// Without a target the document is drawn unscaled on a canvas whose sides
/// round up (a 188.98-pixel width takes 189 pixels, as rsvg-convert and
/// pdftocairo size their output); with one it is fitted or filled as
/// ``DecodeOptions/contentMode`` says, larger than its own size too, the
/// sides rounded to nearest as the resize processors round a fitted size,
/// and each axis scaled to fill them exactly.
package struct VectorCanvas: Sendable, Equatable {
  /// The largest side cairo's image surfaces take.
  package static let maxSide = 32767

  /// The canvas size in pixels.
  package let size: PixelSize
  /// Horizontal scale from document units to pixels.
  package let scaleX: Double
  /// Vertical scale from document units to pixels.
  package let scaleY: Double

  /// The canvas for a document of `width` x `height` units (CSS pixels,
  /// points) drawn as `options` ask.
  package init(width: Double, height: Double, options: DecodeOptions) {
    var scale = 1.0
    let target = options.targetSize.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
    if let target {
      let x = Double(target.width) / width
      let y = Double(target.height) / height
      scale = options.contentMode == .aspectFit ? min(x, y) : max(x, y)
    }
    func side(_ length: Double) -> Int {
      let scaled = target == nil ? (length - 1e-6).rounded(.up) : (length * scale).rounded()
      return scaled >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(scaled))
    }
    size = PixelSize(width: side(width), height: side(height))
    scaleX = target == nil ? 1 : Double(size.width) / width
    scaleY = target == nil ? 1 : Double(size.height) / height
  }

  /// Throws ``MagpieError/Code/imageTooLarge`` when the canvas is over
  /// cairo's sides or the pixel limit; `format` names the document.
  package func check(_ options: DecodeOptions, format: String) throws(MagpieError) {
    guard size.width <= Self.maxSide, size.height <= Self.maxSide else {
      throw MagpieError(.imageTooLarge, "\(format) drawn at \(size) is over cairo's \(Self.maxSide)-pixel sides")
    }
    try options.checkPixelLimit(decoded: size, declared: size)
  }
}
