extension ImageProcessItem {
  /// The decoded image: the item itself, or its bytes decoded through
  /// `options.registry` with `options.decodeOptions`, plus `targetSize`
  /// (so decoders that can shrink while decoding do) and the first-frame
  /// choice. Throws the decoder's error, code and reason kept.
  func decoded(
    options: ImageProcessingOptions, targetSize: PixelSize? = nil,
    contentMode: DecodeOptions.ContentMode = .aspectFit
  ) throws(MagpieError) -> Image {
    switch self {
    case .image(let image):
      return image
    case .data(let data):
      var decodeOptions = options.decodeOptions
      if let targetSize {
        decodeOptions.targetSize = targetSize
        decodeOptions.contentMode = contentMode
      }
      decodeOptions.firstFrameOnly = decodeOptions.firstFrameOnly || options.firstFrameOnly
      return try options.registry.decode(data, options: decodeOptions)
    }
  }

  /// Decodes (as ``decoded(options:targetSize:contentMode:)``) and runs
  /// `transform` over every frame, or only the first as `options` say.
  /// A frame `transform` fails (or frames of different sizes) throw
  /// ``MagpieError/Code/processingFailed`` naming `processor`.
  func mapFrames(
    processor: @autoclosure () -> String, options: ImageProcessingOptions, targetSize: PixelSize? = nil,
    contentMode: DecodeOptions.ContentMode = .aspectFit,
    _ transform: (PixelBuffer) -> PixelBuffer?
  ) throws(MagpieError) -> Image {
    let image = try decoded(options: options, targetSize: targetSize, contentMode: contentMode)
    guard let mapped = image.mappingFrames(firstFrameOnly: options.firstFrameOnly, transform) else {
      let identifier = processor()
      throw MagpieError(
        .processingFailed, "processor \(identifier) could not process the image", processor: identifier)
    }
    return mapped
  }
}
