import Foundation
import Magpie

/// Renders SVG through librsvg and cairo (`MagpieSVG`, built where Debian's
/// librsvg2-dev is installed; librsvg is opened on the first SVG).
///
/// A vector has no pixel size of its own: it is rendered at
/// `DecodeOptions.targetSize` (fitted or filled as
/// `DecodeOptions.contentMode` says, larger than its intrinsic size too),
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
    let canvas = VectorCanvas(width: intrinsic.width, height: intrinsic.height, options: options)
    try canvas.check(options, format: "svg")
    let pixels = try document.render(at: canvas.size, intrinsic: intrinsic, scale: (canvas.scaleX, canvas.scaleY))
    var image = Image(pixels: pixels, format: .svg, scale: options.scale)
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// The intrinsic size, rounded, from parsing alone.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let intrinsic = try SVGDocument(data).intrinsicSize
    return ImageInfo(
      format: .svg, size: VectorCanvas(width: intrinsic.width, height: intrinsic.height, options: DecodeOptions()).size,
      byteCount: data.count)
  }
}
