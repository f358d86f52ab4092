import CDeflate
import Foundation

/// Writes `iCCP`, `eXIf` and an XMP `iTXt` chunk into an encoded PNG (or
/// APNG), right after its `IHDR`, where the specification wants a colour
/// profile: before `PLTE`, `acTL` and the image data.
enum PNGMetadataWriter {
  /// `png` with `icc` (zlib-compressed, as `iCCP` stores it), `exif` (TIFF
  /// bytes) and `xmp` written in.
  static func embed(in png: Data, icc: Data?, exif: Data?, xmp: Data?) throws(MagpieError) -> Data {
    let bytes = [UInt8](png)
    // Signature (8), then IHDR: length 13, so 25 bytes with its type and CRC.
    let afterHeader = 8 + 25
    guard bytes.count >= afterHeader,
      bytes.withUnsafeBytes({ PNGChunk.bigEndian32($0, at: 12) }) == PNGChunk.ihdr
    else { throw MagpieError(.encodingFailed, "the encoded PNG does not start with IHDR") }
    var chunks = PNGChunkWriter()
    if let icc {
      // Keyword, NUL, compression method 0 (zlib), compressed profile.
      chunks.append(PNGChunk.code("iCCP"), Array("ICC profile".utf8) + [0, 0] + (try zlib(icc)))
    }
    if let exif { chunks.append(PNGChunk.exif, [UInt8](exif)) }
    if let xmp {
      // Keyword, NUL, uncompressed (0, method 0), empty language and
      // translated keyword (each NUL-ended), then the packet.
      chunks.append(PNGMetadataReader.itxt, PNGMetadataReader.xmpKeyword + [0, 0, 0, 0, 0] + xmp)
    }
    let written = chunks.bytes.dropFirst(PNGChunkReader.signature.count)
    return Data(bytes[..<afterHeader] + written + bytes[afterHeader...])
  }

  /// `data` as a zlib stream (libdeflate, level 9: profiles are small).
  private static func zlib(_ data: Data) throws(MagpieError) -> [UInt8] {
    guard let compressor = libdeflate_alloc_compressor(9) else {
      throw MagpieError(.encodingFailed, "out of memory compressing an ICC profile")
    }
    defer { libdeflate_free_compressor(compressor) }
    let bound = libdeflate_zlib_compress_bound(compressor, data.count)
    var output = [UInt8](repeating: 0, count: bound)
    let written = data.withUnsafeBytes { input in
      output.withUnsafeMutableBytes {
        libdeflate_zlib_compress(compressor, input.baseAddress, input.count, $0.baseAddress, bound)
      }
    }
    guard written > 0 else { throw MagpieError(.encodingFailed, "could not compress an ICC profile") }
    return Array(output.prefix(written))
  }
}
