import Foundation
import Magpie

extension FuzzHarness {
  /// The BMP coder: header versions, bitfield masks, palettes and the
  /// RLE4/RLE8 decoder's clipping.
  static let bmp = FuzzHarness(name: "bmp", seedExtensions: ["bmp"], maxLength: 64 << 10) { data in
    FuzzDecoding.exercise(BMPCoder(), data)
  }
}
