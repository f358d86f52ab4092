import Foundation

/// Decodes one icon entry: a PNG through the PNG coder, or a headerless BMP
/// (its height doubled for the AND mask that follows the colours) through
/// the BMP decoder, the mask then making pixels transparent.
enum ICOEntryDecoder {
  /// Decodes `entry` of the file `b` into straight RGBA8.
  static func decode(
    _ entry: ICOEntry, in b: UnsafeRawBufferPointer, options: DecodeOptions
  ) throws(MagpieError) -> BMPDecoder.Result {
    let bytes = UnsafeRawBufferPointer(rebasing: b[entry.range])
    if entry.isPNG {
      let image = try PNGCoder().decode(Data(bytes), options: options)
      return BMPDecoder.Result(pixels: image.pixels, isPartial: image.isPartial, usesAlpha: !image.pixels.isOpaque)
    }
    // A file header in front (offset 0: the pixels follow the colour
    // table) and the real height, so the entry reads as a BMP file.
    guard bytes.count >= 12 else {
      throw MagpieError(.truncatedData, "ico entry of \(bytes.count) bytes has no header")
    }
    var file = Data([0x42, 0x4D])
    for value in [14 + bytes.count, 0, 0] {
      withUnsafeBytes(of: UInt32(value).littleEndian) { file.append(contentsOf: $0) }
    }
    file.append(contentsOf: bytes)
    let core = BMPBytes(bytes).u32(0) == 12
    let heightAt = 14 + (core ? 6 : 8)
    let doubled = core ? BMPBytes(bytes).u16(6) : BMPBytes(bytes).i32(8)
    if core {
      withUnsafeBytes(of: UInt16(truncatingIfNeeded: doubled / 2).littleEndian) {
        file.replaceSubrange(heightAt..<(heightAt + 2), with: $0)
      }
    } else {
      withUnsafeBytes(of: Int32(truncatingIfNeeded: doubled / 2).littleEndian) {
        file.replaceSubrange(heightAt..<(heightAt + 4), with: $0)
      }
    }
    return try PinnedBytes.with(file) { (f) throws(MagpieError) -> BMPDecoder.Result in
      let header = try BMPHeader(f)
      // The entry was chosen for the size: decoded whole, so the mask fits.
      var whole = options
      whole.targetSize = nil
      var result = try BMPDecoder.decode(f, header: header, options: whole)
      if !result.usesAlpha, header.compression == .none || header.compression == .bitfields {
        applyMask(f, header: header, to: &result.pixels)
      }
      return result
    }
  }

  /// Makes the pixels the AND mask sets transparent black; rows the file
  /// does not reach stay as they are.
  private static func applyMask(_ f: UnsafeRawBufferPointer, header: BMPHeader, to pixels: inout PixelBuffer) {
    let size = header.size
    let maskStride = (size.width + 31) / 32 * 4
    let (xorBytes, overflow) = header.rowStride.multipliedReportingOverflow(by: size.height)
    guard !overflow else { return }
    let start = header.pixelOffset + xorBytes
    var transparent = false
    pixels.withUnsafeMutableBytes(keepsOpaque: true) { raw in
      for i in 0..<size.height {
        let rowStart = start + i * maskStride
        guard rowStart + maskStride <= f.count else { break }
        let y = header.isTopDown ? i : size.height - 1 - i
        for x in 0..<size.width where f[rowStart + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
          raw.storeBytes(of: UInt32(0), toByteOffset: 4 * (y * size.width + x), as: UInt32.self)
          transparent = true
        }
      }
    }
    if transparent { pixels.isOpaque = false }
  }
}
