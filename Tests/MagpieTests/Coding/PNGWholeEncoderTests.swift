import CDeflate
import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// The whole-buffer PNG writer (libdeflate, SSE2 filter choice): what it
/// writes decodes through libpng alone to the exact pixels given, each
/// row's filter is the one the specification's heuristic picks (recomputed
/// here byte by byte), and images too large for it stream through libpng.
@Suite struct PNGWholeEncoderTests {
  /// Straight RGBA with smooth, noisy and flat stretches, so that rows pick
  /// different filters; alpha varies unless `opaque`.
  static func pixels(width: Int, height: Int, opaque: Bool) -> [UInt8] {
    var state: UInt32 = 0x9E37_79B9
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        state = state &* 1_664_525 &+ 1_013_904_223
        let noise = UInt8(truncatingIfNeeded: state >> 24)
        switch y % 4 {
        case 0: bytes += [UInt8(x * 3 & 0xFF), UInt8(y * 5 & 0xFF), UInt8((x + y) & 0xFF)]
        case 1: bytes += [noise, noise &+ 17, noise ^ 0x55]
        case 2: bytes += [200, 100, 50]
        default: bytes += [UInt8((x * x) & 0xFF), noise & 0x0F, UInt8(255 - (x & 0xFF))]
        }
        bytes.append(opaque ? 255 : UInt8((x * 37 + y * 11) & 0xFF))
      }
    }
    return bytes
  }

  /// `pixels` through mp_png_encode_whole (or the streamed writer).
  static func encode(
    _ pixels: [UInt8], width: Int, height: Int, stride: Int, dropAlpha: Bool, level: Int, streamed: Bool = false
  ) throws -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var count = 0
    var message = [CChar](repeating: 0, count: 128)
    let status = pixels.withUnsafeBufferPointer { buffer in
      streamed
        ? mp_png_encode_streamed(
          buffer.baseAddress, UInt32(width), UInt32(height), stride, dropAlpha ? 1 : 0, Int32(level), &output, &count,
          &message, message.count)
        : mp_png_encode_whole(
          buffer.baseAddress, UInt32(width), UInt32(height), stride, dropAlpha ? 1 : 0, Int32(level), &output, &count)
    }
    try #require(status == MP_PNG_OK)
    let encoded = try #require(output)
    defer { mp_png_free(encoded) }
    return Data(bytes: encoded, count: count)
  }

  /// The straight RGBA libpng alone (no fast path) decodes `data` to.
  static func libpngPixels(_ data: Data) throws -> [UInt8] {
    var coder = PNGCoder()
    coder.usesFastPath = false
    return try coder.decode(data, options: DecodeOptions()).pixels.straightRGBA()
  }

  /// The filtered rows (filter byte first) inside `data`'s IDAT chunks.
  static func filteredRows(_ data: Data, rowBytes: Int, height: Int) throws -> [[UInt8]] {
    let bytes = [UInt8](data)
    var stream: [UInt8] = []
    var at = 8
    while at + 12 <= bytes.count {
      let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
      if String(decoding: bytes[at + 4..<at + 8], as: UTF8.self) == "IDAT" {
        stream += bytes[at + 8..<at + 8 + length]
      }
      at += length + 12
    }
    var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
    let inflater = try #require(libdeflate_alloc_decompressor())
    defer { libdeflate_free_decompressor(inflater) }
    let result = libdeflate_zlib_decompress(inflater, stream, stream.count, &raw, raw.count, nil)
    try #require(result == LIBDEFLATE_SUCCESS)
    return (0..<height).map { Array(raw[$0 * (rowBytes + 1)..<($0 + 1) * (rowBytes + 1)]) }
  }

  /// The filter the specification's heuristic picks for `row` under
  /// `prior`, computed the slow way.
  static func expectedFilter(_ row: [UInt8], prior: [UInt8], bpp: Int) -> UInt8 {
    func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
      let p = a + b - c
      let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
      return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }
    var sums = [Int](repeating: 0, count: 5)
    for i in row.indices {
      let (x, b) = (Int(row[i]), Int(prior[i]))
      let a = i >= bpp ? Int(row[i - bpp]) : 0
      let c = i >= bpp ? Int(prior[i - bpp]) : 0
      for (f, predicted) in [0, a, b, (a + b) / 2, paeth(a, b, c)].enumerated() {
        let v = (x - predicted) & 0xFF
        sums[f] += v < 128 ? v : 256 - v
      }
    }
    return UInt8(sums.indices.min { sums[$0] < sums[$1] }!)
  }

  @Test(arguments: [(1, 1), (3, 2), (5, 9), (17, 13), (64, 40)], [false, true])
  func decodesThroughLibpngToTheSamePixels(size: (Int, Int), opaque: Bool) throws {
    let (width, height) = size
    let straight = Self.pixels(width: width, height: height, opaque: opaque)
    for level in [0, 1, 6, 9] {
      let data = try Self.encode(
        straight, width: width, height: height, stride: width * 4, dropAlpha: opaque, level: level)
      #expect(data[data.startIndex + 25] == (opaque ? 2 : 6))
      #expect(try Self.libpngPixels(data) == straight)
    }
  }

  @Test(arguments: [false, true])
  func eachRowTakesTheHeuristicsFilter(opaque: Bool) throws {
    let (width, height) = (45, 24)
    let straight = Self.pixels(width: width, height: height, opaque: opaque)
    let data = try Self.encode(straight, width: width, height: height, stride: width * 4, dropAlpha: opaque, level: 1)
    let bpp = opaque ? 3 : 4
    let rows = try Self.filteredRows(data, rowBytes: width * bpp, height: height)
    var prior = [UInt8](repeating: 0, count: width * bpp)
    var chosen: Set<UInt8> = []
    for y in 0..<height {
      let pixels = straight[y * width * 4..<(y + 1) * width * 4]
      let row = opaque ? pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) : Array(pixels)
      #expect(rows[y][0] == Self.expectedFilter(row, prior: prior, bpp: bpp), "row \(y)")
      chosen.insert(rows[y][0])
      prior = row
    }
    // The picture is built so that no single filter wins everywhere.
    #expect(chosen.count >= 3)
  }

  @Test func paddedRowsAndTheStreamedWriterAgree() throws {
    let (width, height, stride) = (19, 7, 19 * 4 + 12)
    let packed = Self.pixels(width: width, height: height, opaque: false)
    var padded = [UInt8](repeating: 0xEE, count: stride * height)
    for y in 0..<height {
      padded.replaceSubrange(y * stride..<y * stride + width * 4, with: packed[y * width * 4..<(y + 1) * width * 4])
    }
    let whole = try Self.encode(padded, width: width, height: height, stride: stride, dropAlpha: false, level: 1)
    let streamed = try Self.encode(
      padded, width: width, height: height, stride: stride, dropAlpha: false, level: 1, streamed: true)
    #expect(try Self.libpngPixels(whole) == packed)
    #expect(try Self.libpngPixels(streamed) == packed)
  }

  @Test func onlyImagesWhoseRowsFit64MiBAreBuffered() {
    #expect(mp_png_encodes_whole(4095, 4095, 0) == 1)
    #expect(mp_png_encodes_whole(4096, 4096, 0) == 0)
    #expect(mp_png_encodes_whole(4096, 4096, 1) == 1)
    #expect(mp_png_encodes_whole(0x7FFF_FFFF, 1, 0) == 0)
    let one: [UInt8] = [1, 2, 3, 4]
    var output: UnsafeMutablePointer<UInt8>?
    var count = 0
    #expect(mp_png_encode_whole(one, 0x7FFF_FFFF, 1, 4, 0, 1, &output, &count) == MP_PNG_INVALID_ARGUMENT)
    #expect(mp_png_encode_whole(one, 1, 1, 4, 0, 10, &output, &count) == MP_PNG_INVALID_ARGUMENT)
    #expect(output == nil)
  }
}
