import Foundation
import Magpie

/// Renders SVG through librsvg and cairo (`MagpieSVG`, built where Debian's
/// librsvg2-dev is installed; librsvg is opened on the first SVG).
///
/// A vector has no pixel size of its own: it is rendered at
/// ``DecodeOptions/targetSize`` (fitted or filled as
/// ``DecodeOptions/contentMode`` says, larger than its intrinsic size too),
/// or without a target at its intrinsic size: its width and height in CSS
/// pixels (96 dpi), else its viewBox, else 300x150, fractions rounded up.
/// At a target size the sides round to nearest, as the resize processors'.
///
/// Safety: the document is parsed from memory with no base file, so it can
/// load no file and nothing from the network, only `data:` URLs; librsvg's
/// limits stay on (XML depth and size, entity expansion, 1,000,000 loaded
/// elements, 500,000 referenced ones, which stop a billion-laughs `<use>`
/// chain); the rendered size is checked against the pixel limit before any
/// pixel memory is taken, and cairo's 32767-pixel sides. The decode time
/// limit is checked after parsing and before rendering; a render itself
/// cannot be interrupted, and librsvg's element limits bound it.
public struct SVGCoder: ImageCoder {
  /// The largest side cairo's image surfaces take.
  static let maxSide = 32767

  /// Creates the coder.
  public init() {}

  /// True for SVG data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .svg }

  /// Renders the document (see the type's description).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let deadline = options.startDeadline()
    let document = try SVGDocument(data)
    try deadline.check("the svg document")
    let intrinsic = document.intrinsicSize
    let size = Self.renderSize(intrinsic: intrinsic, options: options)
    guard size.width <= Self.maxSide, size.height <= Self.maxSide else {
      throw MagpieError(.imageTooLarge, "svg rendered at \(size) is over cairo's \(Self.maxSide)-pixel sides")
    }
    try options.checkPixelLimit(decoded: size, declared: size)
    // At its own size the document is drawn unscaled on a canvas rounded
    // up (a 188.98-pixel width into 189 pixels); at a target size it is
    // scaled to the rounded canvas, as rsvg-convert -w -h draws.
    let scale =
      options.targetSize == nil
      ? (x: 1.0, y: 1.0) : (x: Double(size.width) / intrinsic.width, y: Double(size.height) / intrinsic.height)
    let pixels = try document.render(at: size, intrinsic: intrinsic, scale: scale)
    var image = Image(pixels: pixels, format: .svg, scale: options.scale)
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// The intrinsic size, rounded, from parsing alone.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let document = try SVGDocument(data)
    return ImageInfo(
      format: .svg, size: Self.renderSize(intrinsic: document.intrinsicSize, options: DecodeOptions()),
      byteCount: data.count)
  }

  /// How much a document of `intrinsic` CSS pixels is scaled: 1, or what
  /// fits or fills the target size.
  static func scale(intrinsic: (width: Double, height: Double), options: DecodeOptions) -> Double {
    guard let target = options.targetSize, target.width > 0, target.height > 0 else { return 1 }
    let x = Double(target.width) / intrinsic.width
    let y = Double(target.height) / intrinsic.height
    return options.contentMode == .aspectFit ? min(x, y) : max(x, y)
  }

  /// The pixel size to render a document of `intrinsic` CSS pixels at.
  static func renderSize(intrinsic: (width: Double, height: Double), options: DecodeOptions) -> PixelSize {
    let scale = scale(intrinsic: intrinsic, options: options)
    // At its own size fractions round up, as rsvg-convert sizes its output
    // (a 50 mm width is 188.98 pixels: 189); at a target size they round to
    // nearest, as the resize processors round a fitted size.
    let rule: FloatingPointRoundingRule = options.targetSize == nil ? .up : .toNearestOrAwayFromZero
    func side(_ length: Double) -> Int {
      let scaled = (length * scale - (options.targetSize == nil ? 1e-6 : 0)).rounded(rule)
      return scaled >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(scaled))
    }
    return PixelSize(width: side(intrinsic.width), height: side(intrinsic.height))
  }
}
