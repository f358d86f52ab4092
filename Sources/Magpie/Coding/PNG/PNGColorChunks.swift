import CMagpieCodecs
import Foundation

/// The chunks before IDAT that say what colours a PNG's values mean, and
/// the profile they amount to: iCCP's profile (inflated, at most
/// ``ColorTransformBuilder/maxProfileByteCount`` bytes) first; else an sRGB
/// chunk, which means sRGB (no profile); else cHRM with gAMA, as a profile
/// lcms2 builds from them. A gAMA alone, and any chunk with a bad CRC or
/// length, counts for nothing: the image is untagged (too many files carry
/// a lone, wrong gAMA for it to be worth trusting, and decoding as before
/// keeps their pixels as they were).
struct PNGColorChunks: Sendable, Equatable {
  private var icc: ColorProfile?
  private var sawICCP = false
  private var sawSRGB = false
  /// White x, y, then red, green and blue x, y, in 1/100000.
  private var chromaticities: [UInt32]?
  private var gamma: UInt32?

  /// No chunks yet.
  init() {}

  static let iccp = PNGChunk.code("iCCP")
  static let srgb = PNGChunk.code("sRGB")
  static let chrm = PNGChunk.code("cHRM")
  static let gama = PNGChunk.code("gAMA")

  /// Takes `chunk` of `bytes` into account when it is one of these.
  mutating func read(_ chunk: PNGChunk, in bytes: UnsafeRawBufferPointer) {
    let type = chunk.type
    guard type == Self.iccp || type == Self.srgb || type == Self.chrm || type == Self.gama,
      chunk.hasValidCRC(in: bytes)
    else { return }
    let data = chunk.data(in: bytes)
    switch type {
    case Self.iccp where !sawICCP:
      sawICCP = true
      icc = Self.inflatedProfile(data)
    case Self.srgb:
      sawSRGB = true
    case Self.chrm where data.count == 32:
      chromaticities = (0..<8).map { PNGChunk.bigEndian32(data, at: $0 * 4) }
    case Self.gama where data.count == 4:
      gamma = PNGChunk.bigEndian32(data, at: 0)
    default:
      break
    }
  }

  /// The profile the chunks amount to, or `nil` for sRGB or untagged.
  var profile: ColorProfile? {
    if let icc { return icc }
    if sawSRGB { return nil }
    guard let chromaticities, let gamma, gamma > 0 else { return nil }
    return ColorProfile.fromChromaticities(
      chromaticities.map { Double($0) / 100_000 }, gamma: 100_000 / Double(gamma))
  }

  /// iCCP's profile: a Latin-1 name of 1-79 bytes, a NUL, method 0
  /// (zlib), the stream. `nil` when any of it is wrong.
  private static func inflatedProfile(_ data: UnsafeRawBufferPointer) -> ColorProfile? {
    guard let nul = data.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < data.count, data[nul + 1] == 0 else {
      return nil
    }
    let stream = UnsafeRawBufferPointer(rebasing: data[(nul + 2)...])
    // Grow the output only as far as the bound: the chunk never decides
    // how much is taken.
    var capacity = 64 << 10
    while capacity <= ColorTransformBuilder.maxProfileByteCount {
      var out = [UInt8](repeating: 0, count: capacity)
      var size = 0
      let status = out.withUnsafeMutableBufferPointer { buffer in
        mp_color_inflate(
          stream.baseAddress!.assumingMemoryBound(to: UInt8.self), stream.count, buffer.baseAddress, capacity,
          &size)
      }
      if status == 0 { return ColorProfile(iccData: Data(out.prefix(size))) }
      if status != 1 { return nil }
      capacity *= 4
    }
    return nil
  }
}
