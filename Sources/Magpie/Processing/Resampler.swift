/// Resizes premultiplied RGBA8 pixels with a separable convolution.
///
/// Big reductions go the libvips way: the decoder shrinks first where it can
/// (JPEG DCT scaling, WebP scaling; see ``ImageProcessors/Downsampling``),
/// then an integer box pre-reduce averages whole blocks while the image is
/// still more than `reducingGap` times the target, then the kernel does the
/// rest, so the cost tracks the output size rather than the input size.
///
/// The 8-bit path works in 14-bit fixed point with `Int16` weights, two
/// taps per `pmaddwd` (SSE2 on the x86-64 baseline; AVX2's 256-bit form
/// where the processor has it, chosen at run time in `magpie_resample.c`,
/// because packages cannot raise the baseline with unsafe flags). Measured
/// earlier, in Swift SIMD, single-threaded on 1024×1024 → 512 with 13 taps
/// (row pass / column pass): `Int32` weights 9.6 / 9.5 ms (`pmulld` is
/// SSE4.1, so each product is emulated); `Float` 8.8 / 34 ms; `Int16` one
/// tap at a time 5.6 / 5.2 ms; two taps per `pmaddwd` 2.6 / 3.4 ms. The C
/// loops with AVX2 took a 1200x800 JPEG's 256 px thumbnail from 0.86x to
/// 0.93x of libjpeg's own 1/4 decode (the column pass 2.4 times as fast,
/// the row pass 1.1 times: its two lanes are gathered from two windows).
/// Rows are split across cores when an image is big enough.
///
/// Values are resampled in gamma-encoded sRGB by default, like Pillow and
/// libvips (see ``ResamplingColorSpace`` for why, and for linear light).
/// Colour channels are clamped to alpha afterwards, so the ringing of
/// Lanczos at hard edges never yields an invalid premultiplied pixel, and
/// because the pixels are premultiplied, transparent neighbours never bleed
/// dark fringes into edges.
public enum Resampler {
  /// Scratch memory for intermediate images that never leave a resample
  /// (a JPEG thumbnail's row pass output): at most 8 MiB kept between uses.
  static let scratch = BufferPool(retainedLimit: 8 << 20)

  /// How far into its pooled buffer a ``withScratch(holding:_:)`` buffer
  /// starts. A pooled buffer starts where `malloc` maps large blocks, a
  /// fixed way into a page, like the large arrays the passes write to, so
  /// the column pass's loads trailed its stores by a few bytes modulo
  /// 4 KiB, which the processor takes for a dependency (4K aliasing): a
  /// 400x300 GIF thumbnail took 6 % longer from scratch than from fresh
  /// memory. Half a page and a cache line on, it took no longer.
  static let scratchOffset = 2112

  /// Runs `body` with `count` bytes of ``scratch`` memory.
  static func withScratch<R, E: Error>(
    holding count: Int, _ body: (UnsafeMutableRawPointer) throws(E) -> R
  ) throws(E) -> R {
    try scratch.withBuffer(holding: count + scratchOffset) { (buffer) throws(E) -> R in
      try body(buffer + scratchOffset)
    }
  }

  /// `source` resized to exactly `size`.
  ///
  /// - Parameters:
  ///   - source: the image to resize.
  ///   - size: the size of the result.
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

  /// Which of the kernel's passes resampling `size` pixels spanning
  /// `extentX` × `extentY` to `target` needs: a pass is skipped only when
  /// its axis keeps its size and its content spans all of it. One rule for
  /// every form of the convolution, so they make the same pixels.
  static func neededPasses(
    _ size: PixelSize, extentX: Double, extentY: Double, to target: PixelSize
  ) -> (rows: Bool, columns: Bool) {
    (
      size.width != target.width || extentX != Double(target.width),
      size.height != target.height || extentY != Double(target.height)
    )
  }

  /// The kernel passes over 8-bit pixels whose content spans `extentX` ×
  /// `extentY` source pixels (less than the buffer when a box reduce left
  /// partial blocks); `image` itself when neither pass is needed.
  static func convolve(
    _ image: PixelBuffer, extentX: Double, extentY: Double, to size: PixelSize, kernel: ResamplingKernel
  ) -> PixelBuffer {
    if neededPasses(image.size, extentX: extentX, extentY: extentY, to: size) == (false, false) { return image }
    return image.withUnsafeBytes { raw in
      convolve(
        raw.baseAddress!, size: image.size, stride: image.bytesPerRow, opaque: image.isOpaque,
        premultiplies: image.alphaRepresentation == .straight && !image.isOpaque, extentX: extentX,
        extentY: extentY, to: size, kernel: kernel)
    }
  }
}

/// The values a ``Resampler`` averages.
public enum ResamplingColorSpace: String, Sendable, CaseIterable {
  /// The stored, gamma-encoded sRGB values, as Pillow, libvips, browsers and
  /// most image tools resample. The default: thumbnails then match what
  /// every other tool makes from the same photo, the work stays in 8-bit
  /// fixed point (no lookup tables, no precision lost converting to and from
  /// linear light), and it is two to three times faster.
  case sRGB
  /// Linear light: values are decoded from sRGB, averaged as light adds up,
  /// and encoded again. Physically right: fine high-contrast detail (text,
  /// thin lines, star fields) keeps its brightness instead of darkening, at
  /// the cost of `Float` work.
  case linear
}
