/// Resizes premultiplied RGBA8 pixels with a separable convolution.
///
/// Big reductions go the libvips way: the decoder shrinks first where it can
/// (JPEG DCT scaling, WebP scaling; see ``ImageProcessors/Downsampling``),
/// then an integer box pre-reduce averages whole blocks while the image is
/// still more than `reducingGap` times the target, then the kernel does the
/// rest, so the cost tracks the output size rather than the input size.
///
/// The 8-bit path works in 14-bit fixed point on Swift SIMD vectors, shaped
/// so that LLVM emits SSE2's `pmaddwd` on the x86-64 baseline (packages
/// cannot raise it with unsafe flags). Measured single-threaded on
/// 1024×1024 → 512 with 13 taps (row pass / column pass, best of two
/// runs on a busy machine): `Int32` weights 9.6 / 9.5 ms (`pmulld` is
/// SSE4.1, so each product is emulated); `Float` 8.8 / 34 ms with bytes
/// turned into floats by a bit trick (the standard library's generic `SIMD`
/// conversions are scalarised: 55 / 72 ms); `Int16` weights one tap at a time
/// 5.6 / 5.2 ms; `Int16` two taps per `pmaddwd`, which is what runs:
/// 2.6 ms (rows spread into pairs of pixels first) / 3.4 ms. Rows are
/// split across cores when an image is big enough.
///
/// Values are resampled in gamma-encoded sRGB by default, like Pillow and
/// libvips (see ``ResamplingColorSpace`` for why, and for linear light).
/// Colour channels are clamped to alpha afterwards, so the ringing of
/// Lanczos at hard edges never yields an invalid premultiplied pixel, and
/// because the pixels are premultiplied, transparent neighbours never bleed
/// dark fringes into edges.
public enum Resampler {
  /// `source` resized to exactly `size`.
  ///
  /// - Parameters:
  ///   - kernel: the filter; Lanczos-3 by default.
  ///   - colorSpace: the values averaged; sRGB by default.
  ///   - reducingGap: while the image is more than this many times the
  ///     target along an axis, first average whole blocks of pixels down to
  ///     between `reducingGap` and `2 * reducingGap` times the target
  ///     (Pillow's `reducing_gap`, with the same default, 2). `nil`
  ///     convolves the full image: slower, marginally sharper.
  public static func resample(
    _ source: PixelBuffer, to size: PixelSize, kernel: ResamplingKernel = .lanczos3,
    colorSpace: ResamplingColorSpace = .sRGB, reducingGap: Double? = 2
  ) -> PixelBuffer {
    precondition(size.width > 0 && size.height > 0, "resampling to an empty size")
    precondition(source.width > 0 && source.height > 0, "resampling an empty image")
    if source.size == size { return source }
    // Straight sources are premultiplied by the first pass as it reads them.
    let (factorX, factorY) = boxFactors(from: source.size, to: size, reducingGap: reducingGap)
    if colorSpace == .linear {
      return resampleLinear(source, to: size, kernel: kernel, factorX: factorX, factorY: factorY)
    }
    var image = source
    // After a box reduce with a partial last block, the source spans a
    // fraction of its last pixel: the kernel maps that exact span.
    var extentX = Double(source.width)
    var extentY = Double(source.height)
    if factorX > 1 || factorY > 1 {
      image = boxReduce(source, factorX: factorX, factorY: factorY)
      extentX /= Double(factorX)
      extentY /= Double(factorY)
    }
    return convolve(image, extentX: extentX, extentY: extentY, to: size, kernel: kernel)
  }

  /// The box-reduce factors `resample` uses for a `source` of this size
  /// going to `size` with `reducingGap`.
  static func boxFactors(from source: PixelSize, to size: PixelSize, reducingGap: Double?) -> (x: Int, y: Int) {
    guard let gap = reducingGap, gap >= 1 else { return (1, 1) }
    return (
      max(1, Int(Double(source.width) / (Double(size.width) * gap))),
      max(1, Int(Double(source.height) / (Double(size.height) * gap)))
    )
  }

  /// Whether ``convolve(_:extentX:extentY:to:kernel:)`` resamples an image
  /// of `size` along rows first: it needs both passes, and taps grow with
  /// the shrink factor, so it runs first the pass that leaves the second
  /// one less to do (rows first on a near tie, as Pillow always does).
  static func runsRowsFirst(_ size: PixelSize, extentX: Double, extentY: Double, to target: PixelSize) -> Bool {
    guard size.height != target.height || extentY != Double(target.height) else { return true }
    let (w, h) = (Double(size.width), Double(size.height))
    let (ow, oh) = (Double(target.width), Double(target.height))
    let tapsX = max(w / ow, 1)
    let tapsY = max(h / oh, 1)
    let rowsFirst = h * ow * tapsX + ow * oh * tapsY
    let columnsFirst = w * oh * tapsY + ow * oh * tapsX
    return rowsFirst <= columnsFirst * 1.05
  }

  /// The kernel passes over 8-bit pixels whose content spans `extentX` ×
  /// `extentY` source pixels (less than the buffer when a box reduce left
  /// partial blocks).
  static func convolve(
    _ image: PixelBuffer, extentX: Double, extentY: Double, to size: PixelSize, kernel: ResamplingKernel
  ) -> PixelBuffer {
    let needsRows = image.width != size.width || extentX != Double(size.width)
    let needsColumns = image.height != size.height || extentY != Double(size.height)
    let rows = { (image: PixelBuffer) in
      convolveRows(
        image, ResamplingWeights(inputCount: image.width, inputExtent: extentX, outputCount: size.width, kernel: kernel)
      )
    }
    let columns = { (image: PixelBuffer) in
      convolveColumns(
        image,
        ResamplingWeights(inputCount: image.height, inputExtent: extentY, outputCount: size.height, kernel: kernel))
    }
    switch (needsRows, needsColumns) {
    case (true, true):
      let rowsFirst = runsRowsFirst(image.size, extentX: extentX, extentY: extentY, to: size)
      return rowsFirst ? columns(rows(image)) : rows(columns(image))
    case (true, false): return rows(image)
    case (false, true): return columns(image)
    case (false, false): return image
    }
  }
}
