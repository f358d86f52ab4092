import Foundation
import Magpie

extension FuzzHarness {
  /// The GIF coder: its own file reader and LZW decoder, the compositor's
  /// disposal rules, and `GIFFrameSource`.
  static let gif = FuzzHarness(name: "gif", seedExtensions: ["gif"], maxLength: 64 << 10) { data in
    FuzzDecoding.exercise(GIFCoder(), data)
  }
}
