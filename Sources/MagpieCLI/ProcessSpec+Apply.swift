import Magpie

extension ProcessSpec {
  /// The steps as one processor chain, whose identifier is the spec's
  /// canonical form: what `convert` applies and what `fetch` and `prefetch`
  /// can hand the pipeline (and the cache keys) as they are.
  var processor: ImageProcessors.Chain { ImageProcessors.Chain(steps.map(\.processor)) }

  /// Runs the steps over every frame of `image`, in order.
  func apply(to image: Image, options: ImageProcessingOptions = ImageProcessingOptions()) throws(CLIError) -> Image {
    var result = image
    for processor in processor.processors {
      do throws(MagpieError) {
        result = try result.processed(by: processor, options: options)
      } catch {
        throw .failure("process", "\(processor.identifier) could not process the \(result.pixelSize) image: \(error)")
      }
    }
    return result
  }
}

extension ProcessSpec.Step {
  /// The built-in processor this step names.
  var processor: any ImageProcessor {
    switch self {
    case .downsample(let size):
      ImageProcessors.Downsampling(size: size)
    case .resize(let size, let mode):
      ImageProcessors.Resizing(size: size, mode: ImageProcessors.Resizing.Mode(rawValue: mode) ?? .fit)
    case .crop(let size, let anchor):
      ImageProcessors.Cropping(size: size, anchor: ImageProcessors.Cropping.Anchor(rawValue: anchor) ?? .center)
    case .round(let radius):
      ImageProcessors.RoundCorner(radius: radius)
    case .blur(let radius):
      ImageProcessors.Blur(radius: radius)
    case .tint(let red, let green, let blue, let alpha):
      ImageProcessors.Tint(color: RGBAColor(red: red, green: green, blue: blue, alpha: alpha))
    case .grayscale:
      ImageProcessors.BlackWhite()
    case .rotate(let degrees):
      ImageProcessors.Rotation(ImageProcessors.Rotation.Angle(rawValue: degrees) ?? .degrees90)
    case .flip(let horizontal):
      ImageProcessors.Flip(horizontal ? .horizontal : .vertical)
    }
  }
}
