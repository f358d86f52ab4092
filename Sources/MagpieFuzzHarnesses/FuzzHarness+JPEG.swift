import Foundation
import Magpie

extension FuzzHarness {
  /// The JPEG coder (libjpeg-turbo through the C wrapper: markers, scans,
  /// APP1 orientation, ICC segments) and the thumbnail path that decodes
  /// DCT-scaled bands and box-reduces them (`downsample` from bytes).
  static let jpeg = FuzzHarness(name: "jpeg", seedExtensions: ["jpg", "jpeg"], maxLength: 64 << 10) { data in
    FuzzDecoding.exercise(JPEGCoder(), data)
    let thumbnail = ImageProcessors.Downsampling(size: PixelSize(width: 40, height: 30))
    let options = ImageProcessingOptions(decodeOptions: FuzzDecoding.options(for: data))
    _ = try? thumbnail.process(item: .data(data), options: options)
  }
}
