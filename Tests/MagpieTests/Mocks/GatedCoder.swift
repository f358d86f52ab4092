import Dispatch
import Foundation
import Synchronization

@testable import Magpie

/// Wraps the built-in coders, records the width of every image it decodes,
/// in order, and holds the first decode until ``open()``: a test queues
/// work behind it and then watches the order it runs in.
final class GatedCoder: ImageCoder {
  private let gate = DispatchSemaphore(value: 0)
  private let state = Lock<(isFirst: Bool, widths: [Int])>((true, []))
  private let inner: [any ImageCoder] = CoderRegistry.builtInCoders
  /// Counts decodes as they start.
  let started = AsyncCounter()

  /// The widths decoded so far, in the order their decodes started.
  var decodedWidths: [Int] { state.withLock { $0.widths } }

  /// Lets the held first decode finish.
  func open() { gate.signal() }

  func canDecode(_ data: Data, format: ImageFormat) -> Bool {
    inner.contains { $0.canDecode(data, format: format) }
  }

  func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let format = ImageFormat.sniff(data)
    guard let coder = inner.first(where: { $0.canDecode(data, format: format) }) else {
      throw MagpieError(.unsupportedFormat, "no coder")
    }
    let image = try coder.decode(data, options: options)
    let isFirst = state.withLock { state -> Bool in
      defer { state.isFirst = false }
      state.widths.append(image.pixelSize.width)
      return state.isFirst
    }
    started.increment()
    if isFirst { gate.wait() }
    return image
  }

  func canEncode(to format: ImageFormat) -> Bool { inner.contains { $0.canEncode(to: format) } }

  func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard let coder = inner.first(where: { $0.canEncode(to: format) }) else {
      throw MagpieError(.unsupportedFormat, "no coder")
    }
    return try coder.encode(image, as: format, options: options)
  }
}
