import Magpie

extension ProcessSpec {
  /// Runs the steps over every frame of `image`.
  func apply(to image: Image) throws(CLIError) -> Image {
    var result = image
    for step in steps {
      switch step {
      case .downsample(let box):
        let target = result.pixelSize.fitting(in: box)
        if target != result.pixelSize {
          result.frames = result.frames.map { frame in
            ImageFrame(pixels: Resampler.resample(frame.pixels, to: target), duration: frame.duration)
          }
        }
      default:
        throw .usage("--process", "only downsample(WxH) is available until the processing work lands")
      }
    }
    return result
  }
}
