import CSVGLoader
import Foundation
import Magpie

/// An SVG document parsed by librsvg (see `svg_loader.h`): its size and a
/// render into a pixel buffer. The handle is released when this is.
final class SVGDocument {
  /// The size an SVG without width, height or viewBox is drawn at: the
  /// default size of a replaced element in CSS, as browsers draw it.
  static let defaultSize = (width: 300.0, height: 150.0)

  private let handle: UnsafeMutableRawPointer

  /// Parses `data`; a document librsvg refuses (bad XML, over its element
  /// limits) is corrupt, or over a limit when the reason says so.
  init(_ data: Data) throws(MagpieError) {
    var message = ""
    let opened: UnsafeMutableRawPointer? = data.withUnsafeBytes { bytes in
      withCErrorMessage(&message) { error, capacity in
        mp_svg_load(
          bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, error, capacity)
      }
    }
    guard let opened else { throw Self.error(message, while: "reading") }
    handle = opened
  }

  deinit { mp_svg_free(handle) }

  /// The document's own size in CSS pixels: its width and height, else its
  /// viewBox, else 300x150.
  var intrinsicSize: (width: Double, height: Double) {
    var intrinsic = mp_svg_intrinsic()
    mp_svg_get_intrinsic(handle, &intrinsic)
    if intrinsic.has_size != 0, intrinsic.width > 0, intrinsic.height > 0 {
      return (intrinsic.width, intrinsic.height)
    }
    if intrinsic.has_viewbox != 0, intrinsic.viewbox_width > 0, intrinsic.viewbox_height > 0 {
      return (intrinsic.viewbox_width, intrinsic.viewbox_height)
    }
    return Self.defaultSize
  }

  /// Renders the whole document, its `intrinsic` size scaled to fill a
  /// `size` canvas (each axis on its own, so a rounded side is filled
  /// exactly, as rsvg-convert draws at a given size), straight RGBA.
  func render(at size: PixelSize, intrinsic: (width: Double, height: Double), scale: (x: Double, y: Double))
    throws(MagpieError) -> PixelBuffer
  {
    var message = ""
    return try PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      let result = withCErrorMessage(&message) { error, capacity in
        mp_svg_render(
          handle, Int32(size.width), Int32(size.height), intrinsic.width, intrinsic.height, scale.x, scale.y,
          raw.baseAddress!.assumingMemoryBound(to: UInt8.self), error, capacity)
      }
      guard result >= 0 else { throw Self.error(message, while: "rendering") }
      return result == 1
    }
  }

  /// The error for librsvg's `message`: a limit it enforces, a missing
  /// library, or a document it could not read.
  private static func error(_ message: String, while doing: String) -> MagpieError {
    if message.contains("exceeded") || message.contains("limit") {
      return MagpieError(.limitExceeded, "svg is over librsvg's limits while \(doing): \(message)")
    }
    if mp_svg_library_open() == 0 {
      return MagpieError(
        .unsupportedFormat, "librsvg could not be loaded: \(lazyLibraryMessage { mp_svg_library_error($0, $1) })")
    }
    return MagpieError(.corruptData, "svg could not be \(doing == "reading" ? "read" : "rendered"): \(message)")
  }
}
