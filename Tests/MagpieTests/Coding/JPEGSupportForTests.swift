import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// Fixture loading, pixel comparison and test-only JPEG writing shared by
/// the JPEG suites.
enum JPEGSupportForTests {
  /// The bytes of `Fixtures/jpeg/NAME`.
  static func fixture(_ name: String) throws -> Data {
    try TestPaths.fixture("jpeg/" + name)
  }

  /// Straight RGB (alpha dropped) of a decoded buffer, rows packed.
  static func rgb(_ pixels: PixelBuffer) -> [UInt8] {
    let rgba = pixels.straightRGBA()
    var out = [UInt8]()
    out.reserveCapacity(rgba.count / 4 * 3)
    for i in stride(from: 0, to: rgba.count, by: 4) { out += rgba[i..<(i + 3)] }
    return out
  }

  /// The largest difference of any channel of any pixel.
  static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count, "sizes differ: \(a.count) vs \(b.count)")
    var worst = 0
    for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
  }

  /// Peak signal-to-noise ratio in dB (infinity when equal).
  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count, "sizes differ: \(a.count) vs \(b.count)")
    var sum = 0.0
    for i in a.indices {
      let d = Double(Int(a[i]) - Int(b[i]))
      sum += d * d
    }
    if sum == 0 { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(a.count)))
  }

  /// Whether every alpha byte is 255.
  static func allOpaque(_ pixels: PixelBuffer) -> Bool {
    pixels.withUnsafeBytes { raw in
      for y in 0..<pixels.height {
        for x in 0..<pixels.width where raw[y * pixels.bytesPerRow + x * 4 + 3] != 255 { return false }
      }
      return true
    }
  }

  /// What libjpeg's header reader says about `data`.
  static func header(of data: Data) -> mp_jpeg_header? {
    data.withUnsafeBytes { raw -> mp_jpeg_header? in
      guard let decoder = mp_jpeg_decoder_create() else { return nil }
      defer { mp_jpeg_decoder_destroy(decoder) }
      var header = mp_jpeg_header()
      let status = mp_jpeg_decoder_read_header(
        decoder, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &header)
      return status == MP_JPEG_OK ? header : nil
    }
  }

  /// Whether the two-byte marker `0xFF code` occurs in `data`.
  static func contains(marker code: UInt8, in data: Data) -> Bool {
    let bytes = [UInt8](data)
    for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == code { return true }
    return false
  }

  /// Encodes with libjpeg directly (not through JPEGCoder), for inputs no
  /// fixture script can make: YCCK, huge images.
  static func encode(
    pixels: [UInt8], width: Int, height: Int, sourceRows: Int = 0, input: mp_jpeg_input_format,
    colorSpace: mp_jpeg_color_space = MP_JPEG_COLOR_UNKNOWN, quality: Int = 100,
    sampling: (h: (UInt8, UInt8, UInt8, UInt8), v: (UInt8, UInt8, UInt8, UInt8))? = nil
  ) throws -> Data {
    let channels = input == MP_JPEG_INPUT_RGB ? 3 : input == MP_JPEG_INPUT_GRAY ? 1 : 4
    return try pixels.withUnsafeBytes { raw in
      var params = mp_jpeg_encode_params()
      params.pixels = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      params.stride = width * channels
      params.width = UInt32(width)
      params.height = UInt32(height)
      params.source_rows = UInt32(sourceRows)
      params.input_format = input
      params.color_space = colorSpace
      params.quality = Int32(quality)
      if let sampling {
        params.h_samp = sampling.h
        params.v_samp = sampling.v
      }
      var result = mp_jpeg_encode_result()
      let status = mp_jpeg_encode(&params, &result)
      try #require(status == MP_JPEG_OK)
      defer { mp_jpeg_free(result.data) }
      return Data(bytes: result.data!, count: result.size)
    }
  }
}
