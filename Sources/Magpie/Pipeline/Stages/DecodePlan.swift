import Foundation

/// How a request's bytes become the image its processor chain starts
/// from, and which processors run after: the decode stage's recipe, and
/// its key (requests with equal keys share one decode).
///
/// A first processor that prefers the encoded bytes
/// (``ImageProcessor/prefersEncodedData``) decodes them itself, at its own
/// size, as part of the decode stage; otherwise the registry decodes with
/// the request's options and every processor runs on the shared image.
struct DecodePlan: Sendable {
  /// Decode options from the request and the manager's limits.
  let options: DecodeOptions
  /// The first processor, when it decodes the bytes itself.
  let decodingProcessor: (any ImageProcessor)?
  /// The processors that run on the decoded image, in order.
  let laterProcessors: [any ImageProcessor]
  /// What processors get besides the item.
  let processingOptions: ImageProcessingOptions
  /// Equal for plans that decode the same bytes to the same image.
  let key: String

  init(request: ImageRequest, options: DecodeOptions, registry: CoderRegistry) {
    self.options = options
    processingOptions = ImageProcessingOptions(
      registry: registry, decodeOptions: options, firstFrameOnly: request.options.contains(.onlyLoadFirstFrame))
    if let first = request.processors.first, first.prefersEncodedData {
      decodingProcessor = first
      laterProcessors = Array(request.processors.dropFirst())
    } else {
      decodingProcessor = nil
      laterProcessors = request.processors
    }
    let size = options.targetSize.map { "\($0.width)x\($0.height)" } ?? "-"
    key = [
      size, options.contentMode == .aspectFit ? "fit" : "fill",
      options.firstFrameOnly ? "first" : options.decodesFramesOnDemand ? "onDemand" : "all",
      options.keepsOriginalData ? "keep" : "drop", "\(options.scale)", decodingProcessor?.identifier ?? "",
    ].joined(separator: ",")
  }

  /// The image the later processors start from.
  func decode(_ data: Data) throws(MagpieError) -> Image {
    if let decodingProcessor {
      return try decodingProcessor.processNamingFailures(item: .data(data), options: processingOptions)
    }
    return try processingOptions.registry.decode(data, options: options)
  }
}
