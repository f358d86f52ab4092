import Foundation
import Magpie

extension FuzzHarness {
  /// Magpie's own progressive JPEG decoder against libjpeg, differentially:
  /// every input is decoded at 1/4 and 1/8 scale with the own decoder
  /// allowed and with libjpeg alone, and the two must agree exactly (the
  /// same pixels and partial flag, or the same error). The own decoder
  /// takes only data libjpeg decodes without complaint, so any difference
  /// is a bug in it; the harness stops with the input then.
  static let jpegProgressive = FuzzHarness(
    name: "jpeg-progressive", seedExtensions: ["jpg", "jpeg"], maxLength: 64 << 10
  ) { data in
    var own = JPEGCoder()
    own.usesOwnProgressiveDecoder = true
    var libjpeg = JPEGCoder()
    libjpeg.usesOwnProgressiveDecoder = false
    guard let size = try? libjpeg.info(of: data).size else { return }
    var options = FuzzDecoding.options(for: data)
    options.allowsPartialImage = true
    options.appliesOrientation = false
    for denominator in [4, 8] {
      options.targetSize = PixelSize(
        width: max(1, size.width / denominator), height: max(1, size.height / denominator))
      let mine = Result { () throws(MagpieError) in try own.decode(data, options: options) }
      let theirs = Result { () throws(MagpieError) in try libjpeg.decode(data, options: options) }
      switch (mine, theirs) {
      case (.success(let a), .success(let b)):
        precondition(
          a.pixels == b.pixels && a.isPartial == b.isPartial, "own progressive decoder differs at 1/\(denominator)")
      case (.failure(let a), .failure(let b)):
        precondition(a.code == b.code, "own progressive decoder fails differently: \(a) / \(b)")
      default:
        preconditionFailure("own progressive decoder: \(mine) against libjpeg's \(theirs)")
      }
    }
  }
}
