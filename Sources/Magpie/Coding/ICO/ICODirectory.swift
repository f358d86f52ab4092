/// An icon (`.ico`) or cursor (`.cur`) file's directory, read and checked
/// before any entry is decoded.
///
/// Entries whose bytes start past the file's end or inside the directory
/// are left out, as browsers skip them; a file with none left fails.
struct ICODirectory {
  /// Whether the file is a cursor (type 2).
  let isCursor: Bool
  /// The usable entries, largest first (pixels, then bits per pixel), file
  /// order among equals.
  let entries: [ICOEntry]

  /// Reads the directory of `b`, refusing one that declares more than
  /// `maxEntries` entries before reading them.
  init(_ b: UnsafeRawBufferPointer, maxEntries: Int) throws(MagpieError) {
    let reader = BMPBytes(b)
    guard b.count >= 6 else { throw MagpieError(.truncatedData, "ico header ends early (\(b.count) bytes)") }
    let type = reader.u16(2)
    guard reader.u16(0) == 0, type == 1 || type == 2 else {
      throw MagpieError(.corruptData, "ico header has reserved \(reader.u16(0)) and type \(type), not 0 and 1 or 2")
    }
    let count = reader.u16(4)
    guard count > 0 else { throw MagpieError(.corruptData, "ico directory has no entries") }
    guard count <= maxEntries else {
      throw MagpieError(.limitExceeded, "ico directory of \(count) entries exceeds maxFrameCount \(maxEntries)")
    }
    let directoryEnd = 6 + 16 * count
    guard directoryEnd <= b.count else {
      throw MagpieError(.truncatedData, "ico directory of \(count) entries ends early (\(b.count) bytes)")
    }
    isCursor = type == 2
    var entries: [ICOEntry] = []
    for i in 0..<count {
      let at = 6 + 16 * i
      let offset = reader.u32(at + 12)
      let length = reader.u32(at + 8)
      guard offset >= directoryEnd, offset < b.count, length > 0 else { continue }
      let range = offset..<(offset + min(length, b.count - offset))
      let declared = PixelSize(
        width: reader.u8(at) == 0 ? 256 : reader.u8(at), height: reader.u8(at + 1) == 0 ? 256 : reader.u8(at + 1))
      let hotspot = isCursor ? CursorHotspot(x: reader.u16(at + 4), y: reader.u16(at + 6)) : nil
      entries.append(Self.entry(reader, range: range, declared: declared, hotspot: hotspot))
    }
    guard !entries.isEmpty else {
      throw MagpieError(.truncatedData, "no ico entry's data lies inside the file (\(b.count) bytes)")
    }
    // Largest first; the sort is stable, so file order among equals.
    self.entries = entries.enumerated().sorted { a, b in
      a.element.isLarger(than: b.element) || (!b.element.isLarger(than: a.element) && a.offset < b.offset)
    }.map(\.element)
  }

  /// The entry `options` want: the smallest that covers the target size
  /// without enlarging (most bits per pixel among equals), else the largest.
  func preferredIndex(for options: DecodeOptions) -> Int {
    guard let target = options.targetSize, target.width > 0, target.height > 0 else { return 0 }
    var best: Int?
    for (i, entry) in entries.enumerated() {
      // Shown fitted, it is not enlarged when one side reaches the target;
      // filled, when both do.
      let wide = entry.size.width >= target.width
      let tall = entry.size.height >= target.height
      guard options.contentMode == .aspectFit ? wide || tall : wide && tall else { continue }
      // Entries are sorted largest first: a later covering entry is smaller.
      if let chosen = best, entries[chosen].size.pixelCount == entry.size.pixelCount { continue }
      best = i
    }
    return best ?? 0
  }

  /// An entry with its size and depth from its own header when they read.
  private static func entry(
    _ reader: BMPBytes, range: Range<Int>, declared: PixelSize, hotspot: CursorHotspot?
  ) -> ICOEntry {
    let at = range.lowerBound
    let isPNG =
      range.count >= 8
      && (0..<8).allSatisfy { reader.u8(at + $0) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A][$0] }
    var entry = ICOEntry(range: range, isPNG: isPNG, size: declared, bitsPerPixel: 0, hotspot: hotspot)
    if isPNG, range.count >= 26 {
      let big = { (o: Int) in reader.u8(o) << 24 | reader.u8(o + 1) << 16 | reader.u8(o + 2) << 8 | reader.u8(o + 3) }
      entry.size = PixelSize(width: big(at + 16), height: big(at + 20))
      let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][reader.u8(at + 25)] ?? 0
      entry.bitsPerPixel = reader.u8(at + 24) * channels
    } else if !isPNG, range.count >= 16, [12, 40, 52, 56, 108, 124].contains(reader.u32(at)) {
      let core = reader.u32(at) == 12
      let width = core ? reader.u16(at + 4) : reader.i32(at + 4)
      let height = core ? reader.u16(at + 6) : reader.i32(at + 8)
      entry.size = PixelSize(width: max(0, width), height: max(0, abs(height) / 2))
      entry.bitsPerPixel = core ? reader.u16(at + 10) : reader.u16(at + 14)
    }
    return entry
  }
}
