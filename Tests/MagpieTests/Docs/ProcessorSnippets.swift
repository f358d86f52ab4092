import Foundation
import Magpie

/// The code the Processors article quotes, compiled with the tests.
enum ProcessorSnippets {
  // snippet.begin invert-processor
  /// Inverts the colour channels and keeps alpha.
  struct Invert: ImageProcessor {
    // Part of the cache key: change it whenever the output would change.
    var identifier: String { "invert" }

    func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      let image: Image
      switch item {
      case .data(let data): image = try options.registry.decode(data, options: options.decodeOptions)
      case .image(let decoded): image = decoded
      }
      var bytes = image.pixels.straightRGBA()
      for index in stride(from: 0, to: bytes.count, by: 4) {
        bytes[index] = 255 - bytes[index]
        bytes[index + 1] = 255 - bytes[index + 1]
        bytes[index + 2] = 255 - bytes[index + 2]
      }
      let pixels = PixelBuffer(width: image.pixels.width, height: image.pixels.height, straightRGBA: bytes)
      return Image(pixels: pixels, format: image.format)
    }
  }
  // snippet.end

  /// The article's chain: a thumbnail, rounded, inverted.
  static func chainedRequest(_ url: URL) -> ImageRequest {
    // snippet.begin processor-chain
    let request = ImageRequest(
      url: url,
      processors: [
        ImageProcessors.Downsampling(size: PixelSize(width: 200, height: 200)),
        ImageProcessors.RoundCorner(radius: 12),
        Invert(),
      ])
    // snippet.end
    return request
  }
}
