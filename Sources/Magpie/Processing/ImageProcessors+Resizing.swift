extension ImageProcessors {
  /// Resizes the image to `size` (pixels), enlarging it if need be.
  public struct Resizing: ImageProcessor {
    /// How the image's aspect ratio meets the target size.
    public enum Mode: String, Sendable, CaseIterable {
      /// The largest size with the image's aspect ratio inside the target:
      /// the whole image shows, the result may be narrower or shorter.
      case fit
      /// Exactly the target size, covered by the image with its aspect ratio
      /// kept: the centre is kept and what overhangs is cut off (CSS
      /// `object-fit: cover`).
      case fill
      /// Exactly the target size, the aspect ratio ignored.
      case stretch
    }

    /// The target size in pixels.
    public let size: PixelSize
    /// How the aspect ratio is treated.
    public let mode: Mode
    /// The resampling filter.
    public let kernel: ResamplingKernel
    /// The values the resampler averages.
    public let colorSpace: ResamplingColorSpace

    /// Resizes to `size` as `mode` says; Lanczos-3 in sRGB by default.
    public init(
      size: PixelSize, mode: Mode = .fit, kernel: ResamplingKernel = .lanczos3,
      colorSpace: ResamplingColorSpace = .sRGB
    ) {
      precondition(size.width > 0 && size.height > 0, "resizing to an empty size")
      self.size = size
      self.mode = mode
      self.kernel = kernel
      self.colorSpace = colorSpace
    }

    /// `resize(WxH,MODE,KERNEL,COLORSPACE)`, e.g. `resize(300x200,fill,lanczos3,sRGB)`.
    public var identifier: String {
      "resize(\(ProcessorIdentifier.size(size)),\(mode.rawValue),\(kernel.rawValue),\(colorSpace.rawValue))"
    }

    /// `true`: given the bytes, it decodes at the smallest size that covers
    /// ``size``.
    public var prefersEncodedData: Bool { true }

    /// The resized image.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      // Fit needs the image to cover the fitted size; fill and stretch need
      // it to cover the target on both axes.
      let decodeMode: DecodeOptions.ContentMode = mode == .fit ? .aspectFit : .aspectFill
      return try item.mapFrames(processor: identifier, options: options, targetSize: size, contentMode: decodeMode) {
        pixels in
        resized(pixels)
      }
    }

    private func resized(_ pixels: PixelBuffer) -> PixelBuffer {
      let (w, h) = (Double(pixels.width), Double(pixels.height))
      let (tw, th) = (Double(size.width), Double(size.height))
      switch mode {
      case .stretch:
        return resample(pixels, to: size)
      case .fit:
        let scale = min(tw / w, th / h)
        let target = PixelSize(
          width: max(1, min(size.width, Int((w * scale).rounded()))),
          height: max(1, min(size.height, Int((h * scale).rounded()))))
        return resample(pixels, to: target)
      case .fill:
        // Crop the source to the target's aspect ratio, centred, then scale:
        // no pixel that will be cut off is resampled.
        var cropW = pixels.width
        var cropH = pixels.height
        if w * th > h * tw {
          cropW = max(1, min(pixels.width, Int((h * tw / th).rounded())))
        } else {
          cropH = max(1, min(pixels.height, Int((w * th / tw).rounded())))
        }
        let cropped = pixels.cropped(
          x: (pixels.width - cropW) / 2, y: (pixels.height - cropH) / 2, width: cropW, height: cropH)
        return resample(cropped, to: size)
      }
    }

    private func resample(_ pixels: PixelBuffer, to target: PixelSize) -> PixelBuffer {
      target == pixels.size ? pixels : Resampler.resample(pixels, to: target, kernel: kernel, colorSpace: colorSpace)
    }
  }
}
