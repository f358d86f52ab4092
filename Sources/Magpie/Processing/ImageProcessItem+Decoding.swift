extension ImageProcessItem {
  /// The decoded image: the item itself, or its bytes decoded through
  /// `options.registry` with `options.decodeOptions`, plus `targetSize`
  /// (so decoders that can shrink while decoding do) and the first-frame
  /// choice. `nil` when the bytes do not decode.
  func decoded(
    options: ImageProcessingOptions, targetSize: PixelSize? = nil,
    contentMode: DecodeOptions.ContentMode = .aspectFit
  ) -> Image? {
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
      return try? options.registry.decode(data, options: decodeOptions)
    }
  }

  /// Decodes (as ``decoded(options:targetSize:contentMode:)``) and runs
  /// `transform` over every frame, or only the first as `options` say.
  func mapFrames(
    options: ImageProcessingOptions, targetSize: PixelSize? = nil,
    contentMode: DecodeOptions.ContentMode = .aspectFit,
    _ transform: (PixelBuffer) -> PixelBuffer?
  ) -> Image? {
    decoded(options: options, targetSize: targetSize, contentMode: contentMode)?
      .mappingFrames(firstFrameOnly: options.firstFrameOnly, transform)
  }
}
