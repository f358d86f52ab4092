import CGIF
import Foundation
import Testing

@testable import Magpie

/// Magpie's LZW decompressor against giflib's own (DGifSlurp), a second
/// independent decoder, and against known index streams.
@Suite struct GIFLZWDecoderTests {
  /// giflib's input callback state for the reference decode.
  private struct Input {
    var bytes: UnsafePointer<UInt8>
    var count: Int
    var offset: Int
  }

  /// Every frame's raw indices as giflib's DGifSlurp decodes them (it
  /// de-interlaces, so interlaced frames come back in image order).
  static func giflibIndices(_ data: Data) throws -> [[UInt8]] {
    try data.withUnsafeBytes { raw in
      let input = UnsafeMutablePointer<Input>.allocate(capacity: 1)
      defer { input.deallocate() }
      input.initialize(to: Input(bytes: raw.bindMemory(to: UInt8.self).baseAddress!, count: raw.count, offset: 0))
      var error: Int32 = 0
      let gif = try #require(
        DGifOpen(
          input,
          { gif, buffer, length in
            let input = gif!.pointee.UserData!.assumingMemoryBound(to: Input.self)
            let n = min(Int(length), input.pointee.count - input.pointee.offset)
            buffer!.update(from: input.pointee.bytes + input.pointee.offset, count: n)
            input.pointee.offset += n
            return Int32(n)
          }, &error))
      defer { DGifCloseFile(gif, nil) }
      try #require(DGifSlurp(gif) == GIF_OK, "giflib: \(gif.pointee.Error)")
      return (0..<Int(gif.pointee.ImageCount)).map { i in
        let image = gif.pointee.SavedImages[i]
        let count = Int(image.ImageDesc.Width * image.ImageDesc.Height)
        return Array(UnsafeBufferPointer(start: image.RasterBits, count: count))
      }
    }
  }

  /// Every frame's indices as Magpie's decoder produces them, in stored
  /// row order, asking for `chunk` indices a call to exercise resumption.
  static func magpieIndices(_ data: Data, chunk: Int) throws -> [[UInt8]] {
    try GIFFileReader.withReader(data) { reader throws(MagpieError) -> [[UInt8]] in
      var frames: [[UInt8]] = []
      var compressed: [UInt8] = []
      let decoder = GIFLZWDecoder()
      while let frame = try reader.nextFrame() {
        let codeSize = reader.readCompressedData(into: &compressed, frame: reader.frameCount)
        if let damage = reader.damage { throw damage }
        let total = frame.width * frame.height
        var indices = [UInt8](repeating: 0, count: total)
        compressed.withUnsafeBufferPointer { data in
          decoder.reset(data: data, minimumCodeSize: codeSize)
          indices.withUnsafeMutableBufferPointer { out in
            var done = 0
            while done < total {
              let n = decoder.decode(into: out.baseAddress! + done, count: min(chunk, total - done))
              done += n
              if n == 0 { break }
            }
          }
        }
        if frame.isInterlaced {
          var ordered = indices
          for stored in 0..<frame.height {
            let y = GIFCoder.interlacedRow(stored, height: frame.height)
            ordered.replaceSubrange(
              (y * frame.width)..<((y + 1) * frame.width),
              with: indices[(stored * frame.width)..<((stored + 1) * frame.width)])
          }
          indices = ordered
        }
        frames.append(indices)
      }
      return frames
    }
  }

  /// A GIF of one frame of `indices` written by giflib's encoder (through
  /// GIFWriter, whose palette keeps exact colours for 256 or fewer).
  static func giflibEncoded(width: Int, height: Int, indices: [UInt8], colors: Int) throws -> Data {
    var rgba: [UInt8] = []
    rgba.reserveCapacity(indices.count * 4)
    for index in indices {
      let i = Int(index) % colors
      rgba += [UInt8(i), UInt8((i * 7) & 0xFF), UInt8((i * 13) & 0xFF), 255]
    }
    let image = Image(pixels: PixelBuffer(width: width, height: height, straightRGBA: rgba))
    return try GIFCoder(dithers: false).encode(image, as: .gif, options: EncodeOptions())
  }

  /// GIF LZW with a "deferred clear": once the table is full the encoder
  /// keeps sending 12-bit codes and never clears, which the format allows.
  static func deferredClearLZW(_ indices: [Int], minimumCodeSize: Int) -> [UInt8] {
    let clear = 1 << minimumCodeSize
    var table: [[Int]: Int] = [:]
    for i in 0..<clear { table[[i]] = i }
    var next = clear + 2
    var size = minimumCodeSize + 1
    var out: [UInt8] = []
    var accumulator = 0
    var bits = 0
    func emit(_ code: Int) {
      accumulator |= code << bits
      bits += size
      while bits >= 8 {
        out.append(UInt8(accumulator & 0xFF))
        accumulator >>= 8
        bits -= 8
      }
    }
    emit(clear)
    var current: [Int] = []
    for k in indices {
      if table[current + [k]] != nil {
        current.append(k)
        continue
      }
      emit(table[current]!)
      if next < 4096 {
        table[current + [k]] = next
        if next >= 1 << size && size < 12 { size += 1 }
        next += 1
      }
      current = [k]
    }
    emit(table[current]!)
    emit(clear + 1)
    if bits > 0 { out.append(UInt8(accumulator & 0xFF)) }
    return out
  }

  @Test(arguments: GIFDecoderTests.compositedFixtures)
  func fixturesDecodeLikeGiflib(name: String) throws {
    let data = try TestPaths.fixture("gif/\(name)")
    let reference = try Self.giflibIndices(data)
    for chunk in [1, 7, 1 << 18] {
      #expect(try Self.magpieIndices(data, chunk: chunk) == reference, "\(name), \(chunk) a call")
    }
  }

  @Test(arguments: [(2, 1), (16, 7), (256, 3), (256, 64)])
  func randomFramesFromGiflibsEncoderDecodeExactly(colors: Int, runLength: Int) throws {
    // Random runs fill the 4096-entry table many times (giflib then clears).
    var random = GIFWebPFixtureTests.SplitMix(state: UInt64(colors * 31 + runLength))
    let width = 300
    let height = 200
    var indices: [UInt8] = []
    while indices.count < width * height {
      let value = UInt8(truncatingIfNeeded: Int.random(in: 0..<colors, using: &random))
      indices += [UInt8](repeating: value, count: Int.random(in: 1...runLength, using: &random))
    }
    indices.removeLast(indices.count - width * height)
    let data = try Self.giflibEncoded(width: width, height: height, indices: indices, colors: colors)
    let reference = try Self.giflibIndices(data)
    #expect(try Self.magpieIndices(data, chunk: 1 << 18) == reference)
    #expect(try Self.magpieIndices(data, chunk: 997) == reference)
  }

  @Test func stringsLongerThanTheBandAreResumed() throws {
    // A solid 1024x300 frame: strings grow to hundreds of pixels and cross
    // every band boundary.
    let indices = [UInt8](repeating: 3, count: 1024 * 300)
    let data = try Self.giflibEncoded(width: 1024, height: 300, indices: indices, colors: 4)
    for chunk in [5, 1000, 1 << 18] {
      #expect(try Self.magpieIndices(data, chunk: chunk) == [indices.map { _ in UInt8(0) }])
    }
    let image = try GIFCoder().decode(data, options: DecodeOptions())
    #expect(image.pixels[1023, 299] == SIMD4(3, 21, 39, 255))
  }

  @Test func aDeferredClearStreamDecodesLikeGiflib() throws {
    var random = GIFWebPFixtureTests.SplitMix(state: 42)
    let indices = (0..<(400 * 300)).map { _ in Int.random(in: 0..<4, using: &random) }
    let lzw = Self.deferredClearLZW(indices, minimumCodeSize: 2)
    let data = GIFHostileInputTests.gif(screen: (400, 300), frames: [(0, 0, 400, 300, lzw)])
    let expected = indices.map { UInt8($0) }
    #expect(try Self.giflibIndices(data) == [expected])
    #expect(try Self.magpieIndices(data, chunk: 1 << 18) == [expected])
    #expect(try Self.magpieIndices(data, chunk: 333) == [expected])
  }

  @Test func damagedStreamsStopWithoutReadingOutOfBounds() {
    let decoder = GIFLZWDecoder()
    var out = [UInt8](repeating: 0, count: 64)
    // Code size 2: clear (4), then 7, a code past the table.
    let pastTable: [UInt8] = [0x3C, 0x00]
    pastTable.withUnsafeBufferPointer { data in
      decoder.reset(data: data, minimumCodeSize: 2)
      let n = out.withUnsafeMutableBufferPointer { decoder.decode(into: $0.baseAddress!, count: 64) }
      #expect(n == 0)
      #expect(decoder.isDamaged)
    }
    // Colour 1, then the data ends without an end code.
    let cut: [UInt8] = [0x0C]
    cut.withUnsafeBufferPointer { data in
      decoder.reset(data: data, minimumCodeSize: 2)
      let n = out.withUnsafeMutableBufferPointer { decoder.decode(into: $0.baseAddress!, count: 64) }
      #expect(n == 1)
      #expect(decoder.hasEnded && decoder.isDamaged)
    }
    // Clear, colour 2, end: ends cleanly with one index.
    let ended: [UInt8] = [0x54, 0x01]
    ended.withUnsafeBufferPointer { data in
      decoder.reset(data: data, minimumCodeSize: 2)
      let n = out.withUnsafeMutableBufferPointer { decoder.decode(into: $0.baseAddress!, count: 64) }
      #expect(n == 1 && out[0] == 2)
      #expect(decoder.hasEnded && !decoder.isDamaged)
    }
  }
}
