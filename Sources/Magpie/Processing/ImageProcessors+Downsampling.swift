extension ImageProcessors {
  /// Shrinks the image to fit inside `size` (pixels), keeping its aspect
  /// ratio and never enlarging it: the thumbnail processor, Kingfisher's
  /// `DownsamplingImageProcessor`.
  ///
  /// Given data, it decodes at the smallest size the decoder can produce
  /// that still covers the target (JPEG DCT scaling by 1/2, 1/4 or 1/8 and,
  /// for progressive JPEGs, only the scans that size needs; WebP decoder
  /// scaling), then resamples the rest of the way. Given an image, it
  /// box-reduces and then resamples (see ``Resampler``). JPEG bytes are
  /// box-reduced band by band as libjpeg decodes them, so the scaled
  /// decode is never held whole: a 10000x10000 photo thumbnailed to 256 px
  /// stays under 64 MB of memory in all.
  public struct Downsampling: ImageProcessor {
    /// The box to fit inside, in pixels.
    public let size: PixelSize
    /// The resampling filter.
    public let kernel: ResamplingKernel
    /// The values the resampler averages.
    public let colorSpace: ResamplingColorSpace

    /// Fits images inside `size`; Lanczos-3 in sRGB by default.
    public init(size: PixelSize, kernel: ResamplingKernel = .lanczos3, colorSpace: ResamplingColorSpace = .sRGB) {
      precondition(size.width > 0 && size.height > 0, "downsampling to an empty size")
      self.size = size
      self.kernel = kernel
      self.colorSpace = colorSpace
    }

    /// `downsample(WxH,KERNEL,COLORSPACE)`, e.g. `downsample(256x256,lanczos3,sRGB)`.
    public var identifier: String {
      "downsample(\(ProcessorIdentifier.size(size)),\(kernel.rawValue),\(colorSpace.rawValue))"
    }

    /// `true`: given the bytes, it decodes at the smallest size that covers
    /// ``size``.
    public var prefersEncodedData: Bool { true }

    /// The image fitted inside ``size``; unchanged when it already fits.
    public func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
      if case .data(let data) = item, colorSpace == .sRGB {
        // JPEG bytes: box-reduce bands as they are decoded (same pixels,
        // a fraction of the memory); nil for other formats. A decode error
        // keeps its code (corrupt, truncated, too large).
        if let image = try JPEGThumbnailDecoder.thumbnail(data, fitting: size, kernel: kernel, options: options) {
          return image
        }
      }
      return try item.mapFrames(processor: identifier, options: options, targetSize: size) { pixels in
        let target = pixels.size.fitting(in: size)
        if target == pixels.size { return pixels }
        return Resampler.resample(pixels, to: target, kernel: kernel, colorSpace: colorSpace)
      }
    }
  }
}
