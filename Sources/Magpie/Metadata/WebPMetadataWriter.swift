import CWebP
import Foundation

/// Writes `ICCP`, `EXIF` and `XMP ` chunks into an encoded WebP with
/// libwebpmux, which turns a simple file into an extended (VP8X) one and
/// sets its flags.
enum WebPMetadataWriter {
  /// `webp` with `icc`, `exif` (TIFF bytes) and `xmp` written in.
  static func embed(in webp: Data, icc: Data?, exif: Data?, xmp: Data?) throws(MagpieError) -> Data {
    try webp.withUnsafeBytes { input in
      Result { () throws(MagpieError) in try embed(in: input, icc: icc, exif: exif, xmp: xmp) }
    }
    .get()
  }

  private static func embed(
    in input: UnsafeRawBufferPointer, icc: Data?, exif: Data?, xmp: Data?
  ) throws(MagpieError) -> Data {
    var source = WebPData(bytes: input.bindMemory(to: UInt8.self).baseAddress, size: input.count)
    guard let mux = WebPMuxCreate(&source, 1) else {
      throw MagpieError(.encodingFailed, "libwebpmux could not read the encoded WebP")
    }
    defer { WebPMuxDelete(mux) }
    for (tag, block) in [("ICCP", icc), ("EXIF", exif), ("XMP ", xmp)] {
      guard let block else { continue }
      let status = block.withUnsafeBytes { body in
        var chunk = WebPData(bytes: body.bindMemory(to: UInt8.self).baseAddress, size: body.count)
        return WebPMuxSetChunk(mux, tag, &chunk, 1)
      }
      guard status == WEBP_MUX_OK else {
        throw MagpieError(.encodingFailed, "libwebpmux could not add the \(tag) chunk (status \(status.rawValue))")
      }
    }
    var output = WebPData()
    guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
      throw MagpieError(.encodingFailed, "libwebpmux could not assemble the WebP")
    }
    defer { WebPDataClear(&output) }
    return Data(bytes: bytes, count: output.size)
  }
}
