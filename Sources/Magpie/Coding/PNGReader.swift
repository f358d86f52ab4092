import CMagpieCodecs

/// Decodes one in-memory PNG stream through the libpng shim: header first,
/// so the caller can check the size, then the pixels straight into the
/// final buffer.
///
/// The bytes given to ``init(_:)`` must stay valid for the reader's life.
final class PNGReader {
  private let reader: OpaquePointer
  private(set) var header: PNGHeader?

  /// A reader over `bytes`, which it does not copy.
  init(_ bytes: UnsafeRawBufferPointer) throws(MagpieError) {
    guard let reader = mp_png_reader_create(bytes.baseAddress, bytes.count) else {
      throw MagpieError(.imageTooLarge, "out of memory creating a PNG decoder")
    }
    self.reader = reader
  }

  deinit { mp_png_reader_destroy(reader) }

  /// Reads and validates the chunks before the image data.
  func readHeader() throws(MagpieError) -> PNGHeader {
    var raw = mp_png_header()
    try check(mp_png_reader_read_header(reader, &raw))
    let header = PNGHeader(raw)
    self.header = header
    return header
  }

  /// Decodes every pixel into a new premultiplied buffer. Call after
  /// ``readHeader()`` and after checking the size it returned.
  func readPixels() throws(MagpieError) -> PixelBuffer {
    guard let header else { preconditionFailure("readPixels() before readHeader()") }
    let size = header.size
    let premultiply: Int32 = header.canHaveAlpha ? 1 : 0
    return try PixelBuffer(uninitializedWidth: size.width, height: size.height) {
      (buffer) throws(MagpieError) -> Bool in
      var opaque: Int32 = 0
      try check(
        mp_png_reader_read_rgba(
          reader, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), size.width * PixelBuffer.bytesPerPixel,
          premultiply, &opaque))
      return opaque != 0
    }
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
