import Foundation
import Magpie

extension FuzzHarness {
  /// The icon and cursor coder: the directory walk, the entry choice, PNG
  /// and AND-masked BMP entries, and every entry decoded as a subimage.
  static let ico = FuzzHarness(name: "ico", seedExtensions: ["ico", "cur"], maxLength: 64 << 10) { data in
    let coder = ICOCoder()
    FuzzDecoding.exercise(coder, data)
    let options = FuzzDecoding.options(for: data)
    for index in 0..<min((try? coder.subimages(in: data).count) ?? 0, 4) {
      _ = try? coder.decodeSubimage(at: index, in: data, options: options)
    }
  }
}
