import Foundation

extension ImageProcessItem {
  /// The item as an on-demand animation, when it is one or (data, with
  /// ``DecodeOptions/decodesFramesOnDemand`` in `options`) decodes as one;
  /// `nil` for stills, eager animations and `firstFrameOnly`. A processor
  /// given such an item runs on every frame as it is decoded
  /// (``AnimatedImage/applying(_:options:)``) instead of on the poster.
  func onDemandAnimation(options: ImageProcessingOptions) -> Image? {
    guard !options.firstFrameOnly else { return nil }
    switch self {
    case .image(let image):
      return image.animation == nil ? nil : image
    case .data(let data):
      return options.registry.onDemandAnimation(data, options: options.decodeOptions)
    }
  }
}
