import Foundation
import Magpie

extension FuzzHarness {
  /// The WebP coder: the RIFF container walk (VP8X, ANIM/ANMF, ICCP),
  /// libwebp's lossy and lossless decoders, and `WebPFrameSource`.
  static let webp = FuzzHarness(name: "webp", seedExtensions: ["webp"], maxLength: 64 << 10) { data in
    FuzzDecoding.exercise(WebPCoder(), data)
  }
}
