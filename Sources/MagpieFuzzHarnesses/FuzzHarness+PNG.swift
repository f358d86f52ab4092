import Foundation
import Magpie

extension FuzzHarness {
  /// The PNG coder: the chunk reader, the libdeflate fast path and libpng,
  /// APNG's `acTL`/`fcTL`/`fdAT` parsing and compositing, and
  /// `APNGFrameSource`.
  static let png = FuzzHarness(name: "png", seedExtensions: ["png", "apng"], maxLength: 64 << 10) { data in
    FuzzDecoding.exercise(PNGCoder(), data)
  }
}
