import Foundation

/// Writes BMP files: 24-bit `BI_RGB` rows for opaque pixels, 32-bit
/// `BI_BITFIELDS` with an alpha mask (BITMAPV4HEADER, straight alpha, what
/// browsers, Pillow and ImageMagick read as alpha) otherwise; a
/// BITMAPV5HEADER with the profile embedded when there is one to write.
/// Rows are stored bottom-up, the layout every reader takes.
enum BMPEncoder {
  /// `pixels` as a BMP, with `icc` embedded when given.
  static func encode(_ pixels: PixelBuffer, icc: Data?) throws(MagpieError) -> Data {
    let width = pixels.width
    let height = pixels.height
    let alpha = !pixels.isOpaque
    let bits = alpha ? 32 : 24
    let headerSize = icc != nil ? 124 : (alpha ? 108 : 40)
    let stride = (width * bits + 31) / 32 * 4
    let pixelOffset = 14 + headerSize
    let (imageBytes, overflow) = stride.multipliedReportingOverflow(by: height)
    let fileSize = pixelOffset + imageBytes + (icc?.count ?? 0)
    guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), !overflow,
      fileSize <= Int(UInt32.max)
    else {
      throw MagpieError(.invalidArgument, "a BMP cannot hold a \(pixels.size) image (4 GiB at most)")
    }
    var out = Data(capacity: fileSize)
    func put(_ value: Int, _ bytes: Int) {
      for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }
    out.append(contentsOf: [0x42, 0x4D])
    put(fileSize, 4)
    put(0, 4)
    put(pixelOffset, 4)
    put(headerSize, 4)
    put(width, 4)
    put(height, 4)
    put(1, 2)
    put(bits, 2)
    put(alpha ? 3 : 0, 4)
    put(imageBytes, 4)
    put(2835, 4)  // 72 dpi
    put(2835, 4)
    put(0, 8)
    if headerSize >= 108 {
      for mask in alpha ? [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] : [0, 0, 0, 0] { put(mask, 4) }
      put(icc != nil ? 0x4D42_4544 : 0x7352_4742, 4)  // PROFILE_EMBEDDED or 'sRGB'
      put(0, 48)  // endpoints and gamma, unused for either
    }
    if headerSize == 124 {
      put(4, 4)  // LCS_GM_IMAGES
      put(headerSize + imageBytes, 4)  // the profile follows the pixels
      put(icc?.count ?? 0, 4)
      put(0, 4)
    }
    appendRows(of: pixels, to: &out, bits: bits, stride: stride)
    if let icc { out.append(icc) }
    return out
  }

  private static func appendRows(of pixels: PixelBuffer, to out: inout Data, bits: Int, stride rowBytes: Int) {
    let straight = pixels.straightRGBA()
    let width = pixels.width
    var row = [UInt8](repeating: 0, count: rowBytes)
    straight.withUnsafeBufferPointer { source in
      for y in stride(from: pixels.height - 1, through: 0, by: -1) {
        let line = source.baseAddress! + y * width * 4
        if bits == 24 {
          for x in 0..<width {
            row[3 * x] = line[4 * x + 2]
            row[3 * x + 1] = line[4 * x + 1]
            row[3 * x + 2] = line[4 * x]
          }
        } else {
          for x in 0..<width {
            row[4 * x] = line[4 * x + 2]
            row[4 * x + 1] = line[4 * x + 1]
            row[4 * x + 2] = line[4 * x]
            row[4 * x + 3] = line[4 * x + 3]
          }
        }
        out.append(contentsOf: row)
      }
    }
  }
}
