import Foundation

extension ImageManager {
  /// Decodes a preview (what has arrived of a progressive JPEG, in which
  /// `job` saw a new scan, or the thumbnail embedded in it), runs `job`'s
  /// processors over it and hands the partial image to the job's
  /// subscribers.
  func decodePartial(_ data: Data, source: PreviewSource, job: LoadJob) {
    let request = job.request
    let registry = configuration.registry
    var options = decodeOptions(for: request, keepingOriginal: false)
    options.allowsPartialImage = true
    options.firstFrameOnly = true
    Task.detached { [self] in
      // Partial passes are previews: decode them small unless the request
      // already names a size (a thumbnail is small already).
      if source == .scans, options.targetSize == nil, let info = try? registry.info(of: data) {
        options.targetSize = PixelSize(width: max(1, info.size.width / 4), height: max(1, info.size.height / 4))
      }
      let decodeOptions = options
      var image = try? await decodeLimiter.run { () throws(MagpieError) in
        try registry.decode(data, options: decodeOptions)
      }
      if case .embeddedThumbnail(_, let orientation) = source, orientation != .up, let thumbnail = image {
        image = Image(pixels: thumbnail.pixels.applying(orientation), scale: thumbnail.scale)
      }
      if var partial = image {
        partial.isPartial = true
        for processor in request.processors {
          // A preview a processor cannot handle stops there: the final
          // decode reports the failure, not a partial pass.
          guard
            let next = try? processor.process(
              item: .image(partial), options: ImageProcessingOptions(registry: registry))
          else { break }
          partial = next
        }
        partial.isPartial = true
        image = partial
      }
      job.deliverPartial(image)
    }
    configuration.engineObserver?(.taskMade(.preview))
  }
}
