import Foundation

extension Image {
  /// `processor`'s output for this image; for an on-demand ``animation``,
  /// the animation with `processor` run on every frame as it is decoded
  /// (the poster now), so its frames still need not all be decoded.
  public func processed(
    by processor: any ImageProcessor, options: ImageProcessingOptions = ImageProcessingOptions()
  ) throws(MagpieError) -> Image {
    try processor.processNamingFailures(item: .image(self), options: options)
  }

  /// This on-demand animation with `processor` added to its frames.
  func addingFrameProcessor(_ processor: any ImageProcessor, options: ImageProcessingOptions) throws(MagpieError)
    -> Image
  {
    guard let animation else { return self }
    var result = Image(animation: try animation.applying([processor], options: options), scale: scale)
    result.orientation = orientation
    result.originalData = nil
    return result.keepingDescription(of: self)
  }

  /// This image with `source`'s colour profile and metadata where it has
  /// none: processors change pixels, not the colour space they are in or
  /// what the file said about them.
  func keepingDescription(of source: Image) -> Image {
    var result = self
    if result.colorProfile == nil { result.colorProfile = source.colorProfile }
    if result.metadata == nil { result.metadata = source.metadata }
    return result
  }
}
