import Magpie

/// How many colours a browser's screenshot holds: a blank page has one,
/// text a few hundred, photos many thousands. The browser tests check a
/// page drew by it.
enum ScreenshotColours {
  /// The distinct RGBA values of every `rowStep`-th row of `pixels`,
  /// counted until there are `limit` (the whole image only when it has
  /// fewer).
  static func count(in pixels: PixelBuffer, rowStep: Int = 1, upTo limit: Int = .max) -> Int {
    var colours = Set<UInt32>()
    pixels.withUnsafeBytes { bytes in
      let words = bytes.bindMemory(to: UInt32.self)
      for row in stride(from: 0, to: pixels.height, by: rowStep) where colours.count < limit {
        let start = row * pixels.bytesPerRow / 4
        for index in start..<(start + pixels.width) { colours.insert(words[index]) }
      }
    }
    return colours.count
  }
}
