import Foundation

@testable import Magpie

/// A serializer that cannot store anything: every disk write fails.
struct RefusingSerializer: CacheSerializer {
  func data(with image: Image, original: Data?) -> Data? { nil }
  func image(with data: Data, options: DecodeOptions) -> Image? { nil }
}
