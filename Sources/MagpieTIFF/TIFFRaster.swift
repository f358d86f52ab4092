import CTIFF
import CTIFFLoader
import Magpie

/// Decodes libtiff's current directory to straight RGBA8 through
/// TIFFRGBAImage, which reads strips and tiles of every photometric
/// interpretation (bilevel, grey and palette of 1-16 bits, RGB, CMYK,
/// YCbCr, CIE Lab) and every codec libtiff has, to 8 bits a sample (16-bit
/// colour rounded, `(v + 128) / 257`; 16-bit grey by its high byte, as
/// libtiff 4.5 does).
///
/// Rows come as stored: libtiff is asked for the file's own orientation,
/// so it flips nothing and the caller turns the pixels upright with the
/// rest of Magpie. They are read in bands of whole strips (or rows of
/// tiles), the decode deadline checked between bands.
///
/// TIFFRGBAImage premultiplies unassociated alpha; the directory read into
/// memory is told its alpha is associated instead, which makes libtiff
/// pass every stored value through unchanged. Associated alpha, stored
/// premultiplied, is divided back to straight.
enum TIFFRaster {
  /// Decodes the current directory, `directory`, after checking its size
  /// against `options` and its strip or tile count against the file size.
  /// A strip or tile libtiff cannot read ends the image there: with
  /// `options.allowsPartialImage` the rows after it are transparent and
  /// `isPartial` is true; without, it is an error.
  static func decode(
    _ file: TIFFFile, _ directory: TIFFDirectory, options: DecodeOptions, deadline: DecodeDeadline
  ) throws(MagpieError) -> (pixels: PixelBuffer, isPartial: Bool) {
    try checkChunkCount(directory, fileSize: file.byteCount)
    let tiff = file.tiff
    let storesPremultiplied = try passAlphaThrough(file)
    var message = [CChar](repeating: 0, count: 1024)
    var image = TIFFRGBAImage()
    guard TIFFRGBAImageOK(tiff, &message) != 0, TIFFRGBAImageBegin(&image, tiff, 1, &message) != 0 else {
      // TIFFRGBAImageOK says why in `message`, not through the handler.
      let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let doing = "directory \(directory.location)"
      throw why.isEmpty ? file.error(doing) : TIFFError.make(doing: doing, message: why)
    }
    defer { TIFFRGBAImageEnd(&image) }
    // No flip: rows as stored (see above).
    image.req_orientation = image.orientation
    let (width, height) = (Int(image.width), Int(image.height))
    // TIFFRGBAImage's row offset is an int32_t.
    guard height <= Int(Int32.max) else {
      throw MagpieError(
        .imageTooLarge, "tiff: directory \(directory.location) is \(height) rows, more than libtiff reads")
    }
    let band = bandHeight(file, height: height)
    var decodedRows = 0
    var isPartial = false
    let pixels = try PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) {
      bytes throws(MagpieError) -> Bool in
      let raster = bytes.bindMemory(to: UInt32.self).baseAddress!
      while decodedRows < height {
        try deadline.check("tiff directory \(directory.location) row \(decodedRows)")
        let rows = min(band, height - decodedRows)
        image.row_offset = Int32(decodedRows)
        if TIFFRGBAImageGet(&image, raster + decodedRows * width, UInt32(width), UInt32(rows)) == 0 {
          let failure = file.error("directory \(directory.location) row \(decodedRows)")
          // Thrown before the untouched rest of the buffer is written: a
          // huge declared image that fails at once costs no resident memory.
          guard options.allowsPartialImage, decodedRows > 0 else { throw failure }
          // The band that failed may be partly written: it and the rest are cleared.
          UnsafeMutableRawBufferPointer(rebasing: bytes[(decodedRows * width * 4)...]).initializeMemory(
            as: UInt8.self, repeating: 0)
          isPartial = true
          break
        }
        decodedRows += rows
      }
      if storesPremultiplied && image.alpha != 0 { PixelBuffer.unpremultiply(bytes) }
      return image.alpha == 0 || allOpaque(bytes)
    }
    return (pixels, isPartial)
  }

  /// Refuses a directory declaring more strips or tiles than the file
  /// could hold the offsets and byte counts of (2 bytes each at least,
  /// once there are more than fit in the tag entries themselves), before
  /// libtiff sizes anything by that count.
  static func checkChunkCount(_ directory: TIFFDirectory, fileSize: Int) throws(MagpieError) {
    guard directory.chunkCount > 2, directory.chunkCount > fileSize / 4 else { return }
    throw MagpieError(
      .corruptData,
      "tiff: directory \(directory.location) declares \(directory.chunkCount) strips or tiles, more than "
        + "its \(fileSize) bytes could locate")
  }

  /// Makes libtiff pass unassociated alpha through as stored (see the type's
  /// comment); whether the stored alpha is associated, so that the pixels
  /// come out premultiplied.
  private static func passAlphaThrough(_ file: TIFFFile) throws(MagpieError) -> Bool {
    var count: UInt16 = 0
    var types: UnsafePointer<UInt16>?
    guard mp_tiff_get_extra_samples(file.tiff, &count, &types) != 0, let types, count > 0 else {
      // No ExtraSamples: TIFFRGBAImage takes a fourth RGB sample as
      // associated alpha, and passes it through.
      return true
    }
    // TIFFRGBAImage looks at the first extra sample only; an unspecified
    // one beside three colours it takes as associated.
    var stored = Array(UnsafeBufferPointer(start: types, count: Int(count)))
    guard stored[0] == UInt16(EXTRASAMPLE_UNASSALPHA) else { return true }
    stored[0] = UInt16(EXTRASAMPLE_ASSOCALPHA)
    guard mp_tiff_set_extra_samples(file.tiff, count, stored) != 0 else {
      throw file.error("ExtraSamples", fallback: "libtiff refused to treat the alpha as stored")
    }
    return false
  }

  /// Rows per band: whole strips (or tile rows), at least 16 rows, so
  /// that one-row strips do not cost a call each.
  private static func bandHeight(_ file: TIFFFile, height: Int) -> Int {
    var rows: UInt32 = 0
    if TIFFIsTiled(file.tiff) != 0 {
      _ = mp_tiff_get_u32_defaulted(file.tiff, UInt32(TIFFTAG_TILELENGTH), &rows)
    } else {
      _ = mp_tiff_get_u32_defaulted(file.tiff, UInt32(TIFFTAG_ROWSPERSTRIP), &rows)
    }
    let unit = max(1, min(Int(rows), height))
    return unit * max(1, 16 / unit)
  }

  /// Whether every alpha byte of packed RGBA is 255.
  private static func allOpaque(_ rgba: UnsafeMutableRawBufferPointer) -> Bool {
    var all: UInt8 = 255
    for offset in stride(from: 3, to: rgba.count, by: 4) { all &= rgba[offset] }
    return all == 255
  }
}
