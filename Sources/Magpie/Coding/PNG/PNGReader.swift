import CMagpieCodecs

/// Decodes one in-memory PNG stream through the libpng shim: header first,
/// so the caller can check the size, then the pixels straight into the
/// final buffer.
///
/// A non-interlaced 8-bit image goes through the shim's fast path
/// (libdeflate and SIMD unfiltering) unless `usesFastPath` is false; any
/// image or damage the fast path is unsure of falls back to libpng, so the
/// pixels and errors are libpng's either way.
///
/// The bytes given to ``init(_:usesFastPath:)`` must stay valid for the
/// reader's life.
final class PNGReader {
  private let reader: OpaquePointer
  private(set) var header: PNGHeader?

  /// A reader over `bytes`, which it does not copy. With `usesFastPath`
  /// false every image is decoded by libpng (tests compare the two).
  init(_ bytes: UnsafeRawBufferPointer, usesFastPath: Bool = true) throws(MagpieError) {
    guard let reader = mp_png_reader_create(bytes.baseAddress, bytes.count) else {
      throw MagpieError(.imageTooLarge, "out of memory creating a PNG decoder")
    }
    self.reader = reader
    mp_png_reader_set_fast_path(reader, usesFastPath ? 1 : 0)
  }

  /// Whether ``readPixels()`` decoded the image through the fast path.
  var usedFastPath: Bool { mp_png_reader_used_fast_path(reader) != 0 }

  deinit { mp_png_reader_destroy(reader) }

  /// Reads and validates the chunks before the image data.
  func readHeader() throws(MagpieError) -> PNGHeader {
    var raw = mp_png_header()
    try check(mp_png_reader_read_header(reader, &raw))
    let header = PNGHeader(raw)
    self.header = header
    return header
  }

  /// Decodes every pixel into a new buffer: straight alpha exactly as
  /// stored, or premultiplied while each row is in cache when `premultiplied`
  /// (for pixels that will be resampled anyway). Call after ``readHeader()``
  /// and after checking the size it returned.
  func readPixels(premultiplied: Bool = false) throws(MagpieError) -> PixelBuffer {
    guard let header else { preconditionFailure("readPixels() before readHeader()") }
    let size = header.size
    let stride = size.width * PixelBuffer.bytesPerPixel
    let (pixelBytes, overflow) = stride.multipliedReportingOverflow(by: size.height)
    // The fast path may ask for `height` bytes past the pixels (see
    // mp_png_reader_pixel_capacity); the array's count stays at the pixels.
    let capacity = Int(mp_png_reader_pixel_capacity(reader))
    guard !overflow, capacity >= pixelBytes else {
      throw MagpieError(.imageTooLarge, "a \(size) PNG does not fit in memory")
    }
    let premultiply: Int32 = premultiplied && header.canHaveAlpha ? 1 : 0
    var status = MP_PNG_OK
    var opaque: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      status = mp_png_reader_read_rgba(reader, buffer.baseAddress!, buffer.count, stride, premultiply, &opaque)
      initialized = status == MP_PNG_OK ? pixelBytes : 0
    }
    try check(status)
    return PixelBuffer(
      width: size.width, height: size.height, bytesPerRow: stride, bytes: bytes,
      alpha: premultiply != 0 ? .premultiplied : .straight, isOpaque: opaque != 0)
  }

  private func check(_ status: mp_png_status) throws(MagpieError) {
    if status == MP_PNG_OK { return }
    let message = String(cString: mp_png_reader_message(reader))
    switch status {
    case MP_PNG_TRUNCATED:
      throw MagpieError(.truncatedData, "the PNG data ends before the image does")
    case MP_PNG_OUT_OF_MEMORY:
      throw MagpieError(.imageTooLarge, "libpng ran out of memory: \(message)")
    case MP_PNG_INVALID_ARGUMENT:
      throw MagpieError(.invalidArgument, "the PNG decoder was called out of order")
    default:
      throw MagpieError(.corruptData, "the PNG data is corrupt: \(message)")
    }
  }
}
