import CGIF
import Foundation

/// Writes GIF 89a with giflib's EGif API into a growable in-memory buffer.
///
/// Every frame gets its own palette (the first frame's is the global table,
/// later frames carry local tables). Alpha below 128 becomes a transparent
/// index. Animations get a NETSCAPE2.0 loop extension with the image's loop
/// count, except a loop count of 1, which is written as no extension: that is
/// how a GIF says "play once", and it decodes back to 1. Fully opaque
/// animations store only the rectangle that changed since the previous frame
/// (disposal "none"); animations with transparency store full frames that
/// clear the canvas after themselves (disposal "background"), so every frame
/// shows exactly its own pixels.
enum GIFWriter {
  /// A frame region ready to be written.
  private struct EncodedFrame {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var palette: [SIMD3<Int32>]
    var transparentIndex: Int?
    var indices: [UInt8]
    var delayCentiseconds: Int
  }

  /// Encodes `frames` (all of one size) as a GIF.
  static func encode(frames: [ImageFrame], loopCount: Int, dithers: Bool) throws(MagpieError) -> Data {
    let width = frames[0].pixels.width
    let height = frames[0].pixels.height
    guard width > 0, height > 0, width <= 65535, height <= 65535 else {
      throw MagpieError(.invalidArgument, "gif cannot store a \(width)x\(height) image (1 to 65535 pixels a side)")
    }
    let animated = frames.count > 1
    let straight = frames.map { $0.pixels.straightRGBA() }
    let transparent = straight.map(hasTransparency)
    let anyTransparent = transparent.contains(true)
    // Only opaque animations can keep unchanged pixels from the frame before.
    let crops = animated && !anyTransparent
    var encoded: [EncodedFrame] = []
    encoded.reserveCapacity(frames.count)
    for (i, pixels) in straight.enumerated() {
      var rect = (x: 0, y: 0, width: width, height: height)
      if crops && i > 0 { rect = changedRect(pixels, straight[i - 1], width: width, height: height) }
      let region = crop(pixels, width: width, rect: rect)
      let delay = animated ? min(65535, (frames[i].durationMilliseconds + 5) / 10) : 0
      encoded.append(
        quantize(region, width: rect.width, height: rect.height, x: rect.x, y: rect.y, delay: delay, dithers: dithers))
    }
    let disposal = animated ? (anyTransparent ? 2 : 1) : 0
    return try write(encoded, width: width, height: height, loopCount: animated ? loopCount : nil, disposal: disposal)
  }

  private static func hasTransparency(_ rgba: [UInt8]) -> Bool {
    var i = 3
    while i < rgba.count {
      if rgba[i] < 128 { return true }
      i += 4
    }
    return false
  }

  /// The bounding box of pixels that differ between two frames; one pixel
  /// when nothing changed (a GIF frame cannot be empty).
  private static func changedRect(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> (
    x: Int, y: Int, width: Int, height: Int
  ) {
    a.withUnsafeBytes { rawA in
      b.withUnsafeBytes { rawB in
        let pa = rawA.bindMemory(to: UInt32.self)
        let pb = rawB.bindMemory(to: UInt32.self)
        var minX = width
        var minY = height
        var maxX = -1
        var maxY = -1
        for y in 0..<height {
          let row = y * width
          var first = -1
          var last = -1
          for x in 0..<width where pa[row + x] != pb[row + x] {
            if first < 0 { first = x }
            last = x
          }
          guard first >= 0 else { continue }
          minX = min(minX, first)
          maxX = max(maxX, last)
          if minY == height { minY = y }
          maxY = y
        }
        guard maxX >= 0 else { return (0, 0, 1, 1) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
      }
    }
  }

  private static func crop(_ rgba: [UInt8], width: Int, rect: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
    rgba.withUnsafeBytes { raw in
      let words = raw.bindMemory(to: UInt32.self)
      if rect.width == width && rect.x == 0 && rect.y == 0 && rect.height * width == words.count {
        return Array(words)
      }
      var out: [UInt32] = []
      out.reserveCapacity(rect.width * rect.height)
      for y in rect.y..<(rect.y + rect.height) {
        let start = y * width + rect.x
        out.append(contentsOf: words[start..<(start + rect.width)])
      }
      return out
    }
  }

  private static func quantize(
    _ pixels: [UInt32], width: Int, height: Int, x: Int, y: Int, delay: Int, dithers: Bool
  ) -> EncodedFrame {
    pixels.withUnsafeBufferPointer { buffer in
      let transparent = buffer.contains { UInt32(littleEndian: $0) >> 24 < 128 }
      let limit = transparent ? 255 : 256
      var palette: [SIMD3<Int32>]
      var indices: [UInt8]
      if let exact = GIFColorQuantizer.exactColors(buffer, limit: limit) {
        palette = exact.map { SIMD3(Int32($0 & 0xFF), Int32($0 >> 8 & 0xFF), Int32($0 >> 16 & 0xFF)) }
        if palette.isEmpty { palette = [SIMD3(0, 0, 0)] }
        var lookup: [UInt32: UInt8] = [:]
        for (i, rgb) in exact.enumerated() { lookup[rgb] = UInt8(i) }
        let transparentIndex = UInt8(truncatingIfNeeded: palette.count)
        indices = buffer.map { word in
          let value = UInt32(littleEndian: word)
          return value >> 24 < 128 ? transparentIndex : lookup[value & 0xFF_FFFF]!
        }
      } else {
        palette = GIFColorQuantizer.palette(for: buffer, maxColors: limit)
        var mapper = GIFPaletteMapper(palette: palette)
        indices = mapper.map(
          buffer, width: width, height: height, transparentIndex: UInt8(truncatingIfNeeded: palette.count),
          dithers: dithers)
      }
      var transparentIndex: Int?
      if transparent {
        transparentIndex = palette.count
        palette.append(SIMD3(0, 0, 0))
      }
      return EncodedFrame(
        x: x, y: y, width: width, height: height, palette: palette, transparentIndex: transparentIndex,
        indices: indices, delayCentiseconds: delay)
    }
  }

  // MARK: - giflib

  /// giflib's output callback: appends to the `[UInt8]` in `UserData`.
  private static func append(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafePointer<GifByteType>?, _ length: Int32
  ) -> Int32 {
    guard let gif, let bytes, length > 0, let userData = gif.pointee.UserData else { return 0 }
    userData.assumingMemoryBound(to: [UInt8].self).pointee.append(
      contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
    return length
  }

  /// A giflib colour map for `palette`, padded to a power of two; free it
  /// with `GifFreeMapObject`.
  private static func makeColorMap(_ palette: [SIMD3<Int32>]) -> UnsafeMutablePointer<ColorMapObject>? {
    var size = 2
    while size < palette.count { size *= 2 }
    var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
    for (i, c) in palette.enumerated() {
      colors[i] = GifColorType(
        Red: GifByteType(truncatingIfNeeded: c[0]), Green: GifByteType(truncatingIfNeeded: c[1]),
        Blue: GifByteType(truncatingIfNeeded: c[2]))
    }
    return GifMakeMapObject(Int32(size), colors)
  }

  private static func write(
    _ frames: [EncodedFrame], width: Int, height: Int, loopCount: Int?, disposal: Int
  ) throws(MagpieError) -> Data {
    let output = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
    output.initialize(to: [])
    defer {
      output.deinitialize(count: 1)
      output.deallocate()
    }
    var error: Int32 = 0
    guard let gif = EGifOpen(output, { gif, bytes, length in GIFWriter.append(gif, bytes, length) }, &error) else {
      throw MagpieError(.encodingFailed, "giflib could not start a gif (error \(error))")
    }
    var closed = false
    defer { if !closed { EGifCloseFile(gif, nil) } }
    func check(_ status: Int32, _ what: String) throws(MagpieError) {
      guard status == GIF_OK else {
        let message = GifErrorString(gif.pointee.Error).map { String(cString: $0) } ?? "error \(gif.pointee.Error)"
        throw MagpieError(.encodingFailed, "giflib failed \(what): \(message)")
      }
    }
    EGifSetGifVersion(gif, true)
    guard let global = makeColorMap(frames[0].palette) else {
      throw MagpieError(.encodingFailed, "giflib could not make a colour map")
    }
    let screenStatus = EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, global)
    GifFreeMapObject(global)
    try check(screenStatus, "writing the screen descriptor")
    if let loopCount, loopCount != 1 {
      let count = UInt16(clamping: loopCount)
      try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "writing the loop extension")
      var identifier = Array("NETSCAPE2.0".utf8)
      try check(EGifPutExtensionBlock(gif, 11, &identifier), "writing the loop extension")
      var loop: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
      try check(EGifPutExtensionBlock(gif, 3, &loop), "writing the loop extension")
      try check(EGifPutExtensionTrailer(gif), "writing the loop extension")
    }
    for (i, frame) in frames.enumerated() {
      if disposal != 0 || frame.transparentIndex != nil {
        var control = GraphicsControlBlock(
          DisposalMode: Int32(disposal), UserInputFlag: false, DelayTime: Int32(frame.delayCentiseconds),
          TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(
          EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes), "writing frame \(i + 1)")
      }
      let local = i == 0 ? nil : makeColorMap(frame.palette)
      let status = EGifPutImageDesc(
        gif, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height), false, local)
      if let local { GifFreeMapObject(local) }
      try check(status, "writing frame \(i + 1)'s descriptor")
      var indices = frame.indices
      try check(EGifPutLine(gif, &indices, Int32(indices.count)), "compressing frame \(i + 1)")
    }
    closed = true
    guard EGifCloseFile(gif, &error) == GIF_OK else {
      throw MagpieError(.encodingFailed, "giflib failed finishing the gif (error \(error))")
    }
    return Data(output.pointee)
  }
}
