import Foundation
import Magpie

/// Draws PDF pages through poppler-glib and cairo (`MagpiePDF`, built where
/// Debian's libpoppler-glib-dev is installed; poppler is opened on the
/// first PDF).
///
/// ``decode(_:options:)`` draws the first page; ``decodeSubimage(at:in:options:)``
/// any page (``subimages(in:)`` lists them with their sizes). A page is
/// drawn on white, as viewers and pdftoppm show paper, at
/// `DecodeOptions.targetSize` (fitted or filled, larger than the page
/// too), or without a target at 72 dpi: one point, one pixel, sides rounded
/// up. Pages are the file's images side by side, not frames: `magpie
/// decode` writes the first.
///
/// An encrypted PDF that needs a password is refused
/// (`MagpieError.Code.unsupportedFormat`, saying so); one encrypted only
/// to restrict printing or copying opens, as viewers open it. The size to
/// draw at is checked against the pixel limit, and cairo's 32767-pixel
/// sides, before any pixel memory is taken (a 10^6-point page fails at
/// once); the decode time limit is checked after opening and before
/// drawing. A drawing itself cannot be interrupted.
public struct PDFCoder: MultiImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for PDF data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .pdf }

  /// Draws the first page.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    try decodeSubimage(at: 0, in: data, options: options)
  }

  /// The first page's size at 72 dpi.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let page = try PDFDocument(data).pageSize(0)
    return ImageInfo(
      format: .pdf, size: VectorCanvas(width: page.width, height: page.height, options: DecodeOptions()).size,
      byteCount: data.count)
  }

  /// Every page's size at 72 dpi, in order; more pages than
  /// `DecodeOptions.maxFrameCount` are refused.
  public func subimages(in data: Data) throws(MagpieError) -> [SubimageInfo] {
    let document = try PDFDocument(data)
    let count = document.pageCount
    let limit = DecodeOptions().maxFrameCount
    guard count <= limit else {
      throw MagpieError(.limitExceeded, "pdf of \(count) pages exceeds maxFrameCount \(limit)")
    }
    var pages: [SubimageInfo] = []
    for index in 0..<count {
      let page = try document.pageSize(index)
      pages.append(
        SubimageInfo(
          size: VectorCanvas(width: page.width, height: page.height, options: DecodeOptions()).size, bitsPerPixel: 0))
    }
    return pages
  }

  /// Draws page `index` (from 0).
  public func decodeSubimage(at index: Int, in data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let deadline = options.startDeadline()
    let document = try PDFDocument(data)
    guard document.pageCount > 0 else { throw MagpieError(.corruptData, "pdf has no pages") }
    let page = try document.pageSize(index)
    let canvas = VectorCanvas(width: page.width, height: page.height, options: options)
    try canvas.check(options, format: "pdf page \(index + 1)")
    try deadline.check("the pdf document")
    var image = Image(pixels: try document.render(index, on: canvas), format: .pdf, scale: options.scale)
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Pages are not frames: `magpie decode` draws the first.
  public var decodesSubimagesAsFrames: Bool { false }
}
