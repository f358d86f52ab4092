import Foundation
import Magpie

/// How the coder harnesses drive a coder: small limits, so the fuzzer
/// explores formats instead of decoding huge declared canvases, and a set
/// of option variants picked from the input so one harness reaches every
/// decode path (scaled, first frame only, strict, metadata kept).
public enum FuzzDecoding {
  /// The most pixels a fuzzed frame may have (a 2048x2048 canvas): large
  /// enough for every path, small enough for thousands of runs a second.
  public static let maxPixelCount = 1 << 22
  /// The most bytes all frames of a fuzzed animation may take.
  public static let maxTotalByteCount = 64 << 20
  /// The most frames a frame source is asked for per input.
  static let maxFramesVisited = 8

  /// The options for `data`: the fuzz limits plus one of four variants,
  /// chosen by the input's length so a given input always takes the same.
  public static func options(for data: Data) -> DecodeOptions {
    var options = DecodeOptions(maxPixelCount: maxPixelCount, maxTotalByteCount: maxTotalByteCount)
    switch data.count % 4 {
    case 1:
      options.targetSize = PixelSize(width: 64, height: 48)
      options.firstFrameOnly = true
    case 2:
      options.allowsPartialImage = false
      options.contentMode = .aspectFill
      options.targetSize = PixelSize(width: 33, height: 100)
    case 3:
      options.appliesOrientation = false
      options.keepsMetadata = true
      options.colorManagement = .preserve
    default:
      break
    }
    return options
  }

  /// Runs `coder` over `data` every way it reads bytes: info, a decode,
  /// and its frame source when it has one. Errors are the expected outcome
  /// of hostile bytes and are dropped.
  public static func exercise(_ coder: some ImageCoder, _ data: Data) {
    let options = options(for: data)
    _ = try? coder.info(of: data)
    _ = try? coder.decode(data, options: options)
    exerciseFrameSource(coder, data, options: options)
  }

  /// Opens `coder`'s frame source over `data` and visits a few frames out
  /// of order (last first, then from the start), as playback seeks do,
  /// plus one index outside the animation.
  static func exerciseFrameSource(_ coder: some ImageCoder, _ data: Data, options: DecodeOptions) {
    var sourceOptions = options
    sourceOptions.decodesFramesOnDemand = true
    guard let source = try? coder.frameSource(for: data, options: sourceOptions) else { return }
    let count = source.frameCount
    _ = (source.canvasSize, source.loopCount, source.colorProfile)
    var order = Array(0..<min(count, maxFramesVisited))
    if count > 1 { order.insert(count - 1, at: 0) }
    for index in order {
      _ = source.duration(ofFrame: index)
      _ = try? source.frame(at: index)
    }
    _ = try? source.frame(at: count)
  }
}
