import Foundation

extension ImageManager {
  /// Decodes what has arrived of a progressive JPEG (`job` saw a new scan
  /// in it), runs `job`'s processors over it and hands the partial image
  /// to the job's subscribers.
  func decodePartial(_ data: Data, job: LoadJob) {
    let request = job.request
    let registry = configuration.registry
    var options = decodeOptions(for: request, keepingOriginal: false)
    options.allowsPartialImage = true
    options.firstFrameOnly = true
    Task.detached { [self] in
      // Partial passes are previews: decode them small unless the request
      // already names a size.
      if options.targetSize == nil, let info = try? registry.info(of: data) {
        options.targetSize = PixelSize(width: max(1, info.size.width / 4), height: max(1, info.size.height / 4))
      }
      let decodeOptions = options
      var image = try? await decodeLimiter.run { () throws(MagpieError) in
        try registry.decode(data, options: decodeOptions)
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
