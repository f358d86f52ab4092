import Foundation

@testable import Magpie

/// A processor for pipeline tests: inverts colours (so its output is
/// checkable), decoding data itself as processors must.
struct InvertProcessor: ImageProcessor {
  var tag: String = ""
  var identifier: String { "test.invert(\(tag))" }

  func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    var image: Image
    switch item {
    case .data(let data):
      image = try options.registry.decode(data, options: options.decodeOptions)
    case .image(let given):
      image = given
    }
    image.originalData = nil
    image.frames = image.frames.map { frame in
      var pixels = frame.pixels
      pixels.withUnsafeMutableBytes(keepsOpaque: true) { raw in
        for i in stride(from: 0, to: raw.count, by: 4) {
          let a = raw[i + 3]
          raw[i] = a &- raw[i]
          raw[i + 1] = a &- raw[i + 1]
          raw[i + 2] = a &- raw[i + 2]
        }
      }
      return ImageFrame(pixels: pixels, duration: frame.duration)
    }
    return image
  }
}

/// A processor that always fails.
struct FailingProcessor: ImageProcessor {
  var identifier: String { "test.fail" }
  func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    throw MagpieError(.processingFailed, "processor \(identifier) always fails")
  }
}

/// Wraps the built-in coders and counts decodes, to prove work is shared.
final class CountingCoder: ImageCoder {
  private let count = Lock(0)
  private let inner: [any ImageCoder] = CoderRegistry.builtInCoders

  var decodes: Int { count.withLock { $0 } }

  func canDecode(_ data: Data, format: ImageFormat) -> Bool {
    inner.contains { $0.canDecode(data, format: format) }
  }

  func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    count.withLock { $0 += 1 }
    let format = ImageFormat.sniff(data)
    guard let coder = inner.first(where: { $0.canDecode(data, format: format) }) else {
      throw MagpieError(.unsupportedFormat, "no coder")
    }
    return try coder.decode(data, options: options)
  }

  func canEncode(to format: ImageFormat) -> Bool { inner.contains { $0.canEncode(to: format) } }

  func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard let coder = inner.first(where: { $0.canEncode(to: format) }) else {
      throw MagpieError(.unsupportedFormat, "no coder")
    }
    return try coder.encode(image, as: format, options: options)
  }
}
