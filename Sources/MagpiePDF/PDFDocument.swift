import CPDFLoader
import Foundation
import Magpie

/// A PDF opened by poppler-glib (see `pdf_loader.h`): its pages' sizes and
/// a drawing of one. The document is released when this is.
final class PDFDocument {
  private let handle: UnsafeMutableRawPointer

  /// Opens `data`; an encrypted document is refused, a damaged one is
  /// corrupt.
  init(_ data: Data) throws(MagpieError) {
    var message = ""
    var encrypted: Int32 = 0
    let opened: UnsafeMutableRawPointer? = data.withUnsafeBytes { bytes in
      withCErrorMessage(&message) { error, capacity in
        mp_pdf_open(
          bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &encrypted, error, capacity)
      }
    }
    guard let opened else {
      if encrypted != 0 {
        throw MagpieError(.unsupportedFormat, "pdf is encrypted and needs a password, which Magpie does not take")
      }
      if mp_pdf_library_open() == 0 {
        throw MagpieError(
          .unsupportedFormat, "poppler could not be loaded: \(lazyLibraryMessage { mp_pdf_library_error($0, $1) })")
      }
      throw MagpieError(.corruptData, "pdf could not be read: \(message)")
    }
    handle = opened
  }

  deinit { mp_pdf_close(handle) }

  /// The number of pages.
  var pageCount: Int { Int(mp_pdf_page_count(handle)) }

  /// Page `index`'s size in points, its rotation applied.
  func pageSize(_ index: Int) throws(MagpieError) -> (width: Double, height: Double) {
    var width = 0.0
    var height = 0.0
    guard index >= 0, index < Int(Int32.max), mp_pdf_page_size(handle, Int32(index), &width, &height) != 0 else {
      throw MagpieError(.invalidArgument, "pdf has \(pageCount) pages, no page \(index + 1)")
    }
    guard width > 0, height > 0, width.isFinite, height.isFinite else {
      throw MagpieError(.corruptData, "pdf page \(index + 1) declares an empty size \(width)x\(height) pt")
    }
    return (width, height)
  }

  /// Draws page `index` on white onto `canvas`.
  func render(_ index: Int, on canvas: VectorCanvas) throws(MagpieError) -> PixelBuffer {
    var message = ""
    return try PixelBuffer(uninitializedWidth: canvas.size.width, height: canvas.size.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      let result = withCErrorMessage(&message) { error, capacity in
        mp_pdf_render(
          handle, Int32(index), Int32(canvas.size.width), Int32(canvas.size.height), canvas.scaleX, canvas.scaleY,
          raw.baseAddress!.assumingMemoryBound(to: UInt8.self), error, capacity)
      }
      guard result >= 0 else { throw MagpieError(.corruptData, "pdf page \(index + 1) could not be drawn: \(message)") }
      return result == 1
    }
  }
}
