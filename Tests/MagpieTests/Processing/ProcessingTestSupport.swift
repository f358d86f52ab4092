import Foundation

@testable import Magpie

/// Shared helpers of the processing tests: images from fixtures (photo-like
/// ones included), synthetic buffers, and PSNR.
enum ProcessingTestSupport {
  /// A decoded PNG or JPEG from `Fixtures/processing/`.
  static func fixture(_ name: String) throws -> PixelBuffer {
    try CoderRegistry.shared.decode(TestPaths.fixture("processing/" + name)).pixels
  }

  /// The manifest the fixture script wrote.
  static func manifest() throws -> [String: [String: Any]] {
    let data = try TestPaths.fixture("processing/manifest.json")
    return try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] ?? [:]
  }

  /// A photo-like fixture (768x512, or 512x768 for `statue`) from
  /// `Fixtures/photos`, in place of the Kodak photos a clone lacks.
  static func photo(_ name: String) throws -> PixelBuffer {
    try CoderRegistry.shared.decode(Data(contentsOf: TestPaths.photo(name))).pixels
  }

  /// A buffer where every pixel is `color` (premultiplied).
  static func solid(_ width: Int, _ height: Int, _ color: SIMD4<UInt8>) -> PixelBuffer {
    var buffer = PixelBuffer(width: width, height: height)
    buffer.fill(color)
    return buffer
  }

  /// A buffer whose pixels are `pixel(x, y)` (premultiplied).
  static func make(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> SIMD4<UInt8>) -> PixelBuffer {
    var buffer = PixelBuffer(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { buffer[x, y] = pixel(x, y) }
    }
    return buffer
  }

  /// PSNR in dB over the colour channels (and alpha when `alpha`) of two
  /// same-sized buffers, compared premultiplied (as processors return
  /// pixels; decoded references are straight); `.infinity` when equal.
  static func psnr(_ a: PixelBuffer, _ b: PixelBuffer, alpha: Bool = false) -> Double {
    precondition(a.size == b.size, "\(a.size) vs \(b.size)")
    let (a, b) = (a.premultiplied(), b.premultiplied())
    var squares = 0.0
    var count = 0
    let channels = alpha ? 4 : 3
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = a[x, y]
        let q = b[x, y]
        for c in 0..<channels {
          let d = Double(p[c]) - Double(q[c])
          squares += d * d
        }
        count += channels
      }
    }
    if squares == 0 { return .infinity }
    return 10 * log10(255 * 255 / (squares / Double(count)))
  }

  /// The largest difference of any channel between two same-sized buffers,
  /// compared premultiplied.
  static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    precondition(a.size == b.size)
    let (a, b) = (a.premultiplied(), b.premultiplied())
    var worst = 0
    for y in 0..<a.height {
      for x in 0..<a.width {
        let p = SIMD4<Int>(truncatingIfNeeded: a[x, y])
        let q = SIMD4<Int>(truncatingIfNeeded: b[x, y])
        let d = p &- q
        for c in 0..<4 { worst = max(worst, abs(d[c])) }
      }
    }
    return worst
  }

  /// Whether every pixel is a valid premultiplied pixel (no colour above
  /// its alpha).
  static func isValidPremultiplied(_ buffer: PixelBuffer) -> Bool {
    for y in 0..<buffer.height {
      for x in 0..<buffer.width {
        let p = buffer[x, y]
        if p[0] > p[3] || p[1] > p[3] || p[2] > p[3] { return false }
      }
    }
    return true
  }
}
