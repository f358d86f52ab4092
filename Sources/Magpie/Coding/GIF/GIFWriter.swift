import Foundation

/// Writes GIF 89a with giflib (see ``GIFOutput``), one frame at a time.
///
/// Every frame gets its own palette (the first frame's is the global table,
/// later frames carry local tables). Alpha below 128 becomes a transparent
/// index. Animations get a NETSCAPE2.0 loop extension with the image's loop
/// count, except a loop count of 1, which is written as no extension: that is
/// how a GIF says "play once", and it decodes back to 1.
///
/// Each frame shows exactly its own pixels. A frame followed by one with
/// transparency (the first, after the last) is written whole and clears the
/// canvas after itself (disposal "background"); otherwise it stays (disposal
/// "none"), and an opaque frame drawn over one that stayed stores only the
/// rectangle that changed. So the writer looks one frame ahead and holds
/// two frames at most, whatever the animation's length.
enum GIFWriter {
  /// Encodes `frames` (all of one size) as a GIF, reading them in order.
  static func encode(frames: inout EncodingFrames, dithers: Bool) throws(MagpieError) -> Data {
    let width = frames.size.width
    let height = frames.size.height
    guard width > 0, height > 0, width <= 65535, height <= 65535 else {
      throw MagpieError(.invalidArgument, "gif cannot store a \(width)x\(height) image (1 to 65535 pixels a side)")
    }
    let animated = frames.count > 1
    let output = try GIFOutput(width: width, height: height, loopCount: animated ? frames.loopCount : nil)
    guard let first = try frames.next() else { throw MagpieError(.invalidArgument, "a gif needs at least one frame") }
    var current = (frame: first, straight: first.pixels.straightRGBA())
    let firstTransparent = hasTransparency(current.straight)
    var currentTransparent = firstTransparent
    var previous: (straight: [UInt8], stayed: Bool)?
    for index in 0..<frames.count {
      let upcoming = try index + 1 < frames.count ? nextFrame(&frames, number: index + 2) : nil
      let upcomingStraight = upcoming?.pixels.straightRGBA()
      let upcomingTransparent = upcomingStraight.map(hasTransparency) ?? firstTransparent
      let stays = !upcomingTransparent
      var rect = (x: 0, y: 0, width: width, height: height)
      if animated, stays, !currentTransparent, let previous, previous.stayed {
        rect = changedRect(current.straight, previous.straight, width: width, height: height)
      }
      let region = crop(current.straight, width: width, rect: rect)
      let delay = animated ? min(65535, (current.frame.durationMilliseconds + 5) / 10) : 0
      let encoded = quantize(
        region, width: rect.width, height: rect.height, x: rect.x, y: rect.y, delay: delay, dithers: dithers)
      try output.put(encoded, disposal: animated ? (stays ? 1 : 2) : 0)
      guard let upcoming, let upcomingStraight else { break }
      previous = (current.straight, stays)
      current = (upcoming, upcomingStraight)
      currentTransparent = upcomingTransparent
    }
    return try output.finish()
  }

  /// The next frame, which the count says is there.
  private static func nextFrame(_ frames: inout EncodingFrames, number: Int) throws(MagpieError) -> ImageFrame {
    guard let frame = try frames.next() else {
      throw MagpieError(.invalidArgument, "the animation ended before frame \(number) of \(frames.count)")
    }
    guard frame.pixels.size == frames.size else {
      throw MagpieError(.invalidArgument, "gif frame \(number) is \(frame.pixels.size), not \(frames.size)")
    }
    return frame
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
  ) -> GIFEncodedFrame {
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
      return GIFEncodedFrame(
        x: x, y: y, width: width, height: height, palette: palette, transparentIndex: transparentIndex,
        indices: indices, delayCentiseconds: delay)
    }
  }
}

/// One GIF frame region, quantized and ready for giflib.
struct GIFEncodedFrame {
  var x: Int
  var y: Int
  var width: Int
  var height: Int
  var palette: [SIMD3<Int32>]
  var transparentIndex: Int?
  var indices: [UInt8]
  var delayCentiseconds: Int
}
