import Foundation

@testable import Magpie

/// Writes 8-bit PNG streams by hand for the fast-path tests, independent of
/// libpng and of the decoder: any of the colour types 0, 2, 3, 4 and 6, a
/// chosen filter for every row, the zlib stream in deflate "stored" blocks
/// and split over IDAT chunks where asked. ``expectedPixels()`` computes the
/// straight RGBA8 a decoder must produce, from the samples alone.
struct PNGStreamBuilder {
  var width: Int
  var height: Int
  /// 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
  var colorType: Int
  /// Unfiltered rows, `width * channels` bytes each.
  var samples: [UInt8]
  /// Filter type (0-4, or anything to write a bad one) per row.
  var filters: [UInt8]
  /// Colour type 3: RGB triples.
  var palette: [UInt8] = []
  /// The tRNS chunk's data, or nil for none: for colour type 3 an alpha per
  /// palette entry (which ``expectedPixels()`` applies), for 0 and 2 a
  /// colour key (which it does not).
  var transparency: [UInt8]?
  /// Payload sizes of the IDAT chunks but the last, which takes the rest.
  var idatSizes: [Int] = []
  /// The largest stored block; smaller makes more blocks.
  var blockSize = 65_535
  /// The two zlib header bytes (CMF, FLG).
  var zlibHeader: [UInt8] = [0x78, 0x01]
  /// Extra filtered bytes after the last row, inside the zlib stream.
  var trailingBytes: [UInt8] = []
  /// Drops this many filtered bytes from the end of the zlib stream.
  var missingBytes = 0
  /// Whether to store a wrong Adler-32.
  var breaksAdler = false

  var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }
  var rowBytes: Int { width * channels }

  /// A builder for `width` x `height` pixels of photo-like samples (smooth
  /// ramps plus noise, with some rows of pure noise so Paeth takes every
  /// branch) and filters cycling through 0-4 from `seed`.
  init(width: Int, height: Int, colorType: Int, seed: UInt64) {
    self.width = width
    self.height = height
    self.colorType = colorType
    var random = SplitMix64(seed: seed)
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
    var samples = [UInt8](repeating: 0, count: width * channels * height)
    for y in 0..<height {
      let noisy = random.next() % 4 == 0
      for x in 0..<width {
        for c in 0..<channels {
          let noise = Int(random.next() % (noisy ? 256 : 9))
          let ramp = (x * (3 + c) + y * (5 - c) + c * 40) % 256
          samples[(y * width + x) * channels + c] = UInt8(truncatingIfNeeded: noisy ? noise : ramp + noise - 4)
        }
      }
    }
    self.samples = samples
    self.filters = (0..<height).map { UInt8((UInt64($0) &+ seed) % 5) }
    if colorType == 3 {
      // A palette shorter than 256 so that some indices fall past it, and a
      // tRNS shorter than the palette.
      palette = (0..<200 * 3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      transparency = (0..<150).map { i in i % 3 == 0 ? 255 : UInt8(truncatingIfNeeded: random.next()) }
    }
  }

  /// The filtered rows (filter byte + filtered samples), plus any trailing
  /// bytes, minus any missing ones.
  func filteredData() -> [UInt8] {
    let bpp = channels
    var out: [UInt8] = []
    out.reserveCapacity((rowBytes + 1) * height)
    var prior = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<height {
      let row = Array(samples[(y * rowBytes)..<((y + 1) * rowBytes)])
      let filter = filters[y]
      out.append(filter)
      for i in 0..<rowBytes {
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let b = Int(prior[i])
        let c = i >= bpp ? Int(prior[i - bpp]) : 0
        let predicted: Int
        switch filter {
        case 1: predicted = a
        case 2: predicted = b
        case 3: predicted = (a + b) / 2
        case 4: predicted = Self.paeth(a, b, c)
        default: predicted = 0
        }
        out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
      }
      prior = row
    }
    out += trailingBytes
    out.removeLast(min(missingBytes, out.count))
    return out
  }

  /// The Paeth predictor as the PNG specification states it.
  static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
    let p = a + b - c
    let pa = abs(p - a)
    let pb = abs(p - b)
    let pc = abs(p - c)
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
  }

  /// The zlib stream: header, stored blocks, Adler-32.
  func zlibStream() -> [UInt8] {
    let raw = filteredData()
    var out = zlibHeader
    var offset = 0
    repeat {
      let count = min(blockSize, raw.count - offset)
      let final: UInt8 = offset + count == raw.count ? 1 : 0
      out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      out += raw[offset..<(offset + count)]
      offset += count
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    out += PNGDecodeTests.bigEndian((b << 16 | a) ^ (breaksAdler ? 1 : 0))
    return out
  }

  /// The whole PNG stream.
  func png() -> Data {
    var chunks: [(String, [UInt8])] = [
      (
        "IHDR",
        PNGDecodeTests.bigEndian(UInt32(width)) + PNGDecodeTests.bigEndian(UInt32(height)) + [
          8, UInt8(colorType), 0, 0, 0,
        ]
      )
    ]
    if colorType == 3 { chunks.append(("PLTE", palette)) }
    if let transparency { chunks.append(("tRNS", transparency)) }
    let stream = zlibStream()
    var offset = 0
    for size in idatSizes {
      let end = min(stream.count, offset + size)
      chunks.append(("IDAT", Array(stream[offset..<end])))
      offset = end
    }
    chunks.append(("IDAT", Array(stream[offset...])))
    chunks.append(("IEND", []))
    return PNGDecodeTests.stream(chunks)
  }

  /// The straight RGBA8 pixels the samples stand for, as stored: gray
  /// spread to RGB, palette indices past the palette black, past tRNS
  /// opaque, colour kept whatever the alpha.
  func expectedPixels() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(width * height * 4)
    for pixel in 0..<(width * height) {
      let s = samples[(pixel * channels)..<((pixel + 1) * channels)].map { $0 }
      let rgba: [UInt8]
      switch colorType {
      case 0: rgba = [s[0], s[0], s[0], 255]
      case 2: rgba = [s[0], s[1], s[2], 255]
      case 3:
        let index = Int(s[0])
        let rgb = index < palette.count / 3 ? Array(palette[(index * 3)..<(index * 3 + 3)]) : [0, 0, 0]
        let alpha = index < (transparency?.count ?? 0) ? transparency![index] : 255
        rgba = rgb + [alpha]
      case 4: rgba = [s[0], s[0], s[0], s[1]]
      default: rgba = Array(s[0..<4])
      }
      out += rgba
    }
    return out
  }
}
