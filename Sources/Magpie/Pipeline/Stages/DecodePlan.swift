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
  let key: Key

  /// What makes two plans decode the same bytes to the same image.
  struct Key: Hashable, Sendable {
    let targetSize: PixelSize?
    let contentMode: DecodeOptions.ContentMode
    /// 0: all frames; 1: the first only; 2: frames on demand.
    let frames: Int
    let keepsOriginalData: Bool
    let scale: Double
    /// The first processor's identifier, when it decodes the bytes itself.
    let decodingProcessor: String
    /// A video's poster frame time.
    let posterTime: Duration?
  }

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
    key = Key(
      targetSize: options.targetSize, contentMode: options.contentMode,
      frames: options.firstFrameOnly ? 1 : options.decodesFramesOnDemand ? 2 : 0,
      keepsOriginalData: options.keepsOriginalData, scale: options.scale,
      decodingProcessor: decodingProcessor?.identifier ?? "", posterTime: options.posterTime)
  }

  /// The image the later processors start from.
  func decode(_ data: Data) throws(MagpieError) -> Image {
    if let decodingProcessor {
      return try decodingProcessor.processNamingFailures(item: .data(data), options: processingOptions)
    }
    return try processingOptions.registry.decode(data, options: options)
  }
}
