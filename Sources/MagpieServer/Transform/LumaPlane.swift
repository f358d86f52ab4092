import Foundation
import Magpie

/// One byte of luminance per pixel (Rec. 601 weights over premultiplied
/// colour, so transparent pixels read as black), and the entropy of its
/// rectangles: what ``SmartCrop`` weighs strips by.
struct LumaPlane {
  /// Columns.
  let width: Int
  /// Rows.
  let height: Int
  private let values: [UInt8]

  /// The luminance of `pixels`.
  init(_ pixels: PixelBuffer) {
    let source = pixels.premultiplied()
    let (w, h, stride) = (source.width, source.height, source.bytesPerRow)
    width = w
    height = h
    values = source.withUnsafeBytes { raw in
      [UInt8](unsafeUninitializedCapacity: w * h) { out, count in
        for y in 0..<h {
          let row = raw.baseAddress! + y * stride
          for x in 0..<w {
            let p = SIMD4<UInt32>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            // 77 + 150 + 29 = 256: white stays 255.
            let weighted: UInt32 = 77 &* p[0] &+ 150 &* p[1] &+ 29 &* p[2] &+ 128
            out[y * w + x] = UInt8(truncatingIfNeeded: weighted >> 8)
          }
        }
        count = w * h
      }
    }
  }

  /// The Shannon entropy in bits of the luminance histogram of the pixels
  /// in columns `x` and rows `y`; 0 for a flat (or empty) rectangle.
  func entropy(x: Range<Int>, y: Range<Int>) -> Double {
    var histogram = [Int](repeating: 0, count: 256)
    values.withUnsafeBufferPointer { plane in
      for row in y {
        let base = row * width
        for column in x { histogram[Int(plane[base + column])] += 1 }
      }
    }
    let total = Double(x.count * y.count)
    guard total > 0 else { return 0 }
    var bits = 0.0
    for count in histogram where count > 0 {
      let p = Double(count) / total
      bits -= p * log2(p)
    }
    return bits
  }
}
