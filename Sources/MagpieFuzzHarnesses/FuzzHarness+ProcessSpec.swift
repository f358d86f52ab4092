import Foundation
import Magpie

extension FuzzHarness {
  /// The CLI's `--process` spec parser.
  static let processSpec = FuzzHarness(
    name: "process-spec",
    seedTexts: [
      "downsample(256x256)|round(16)", "resize(100x50,stretch)", "crop(64x48,top)", "blur(3)", "tint(#FF800080)",
      "grayscale", "rotate(90) | flip(h)", "flip(v)", "resize(100x100,fill)|tint(#123456)",
    ],
    maxLength: 512
  ) { data in
    guard let spec = try? ProcessSpec(String(decoding: data, as: UTF8.self)) else { return }
    _ = (spec.steps.count, spec.decodeTarget)
  }
}
