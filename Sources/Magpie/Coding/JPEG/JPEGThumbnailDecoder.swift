import Foundation

/// Shrink-on-load for JPEG thumbnails without ever holding the DCT-scaled
/// image: libjpeg hands over bands of rows at 1/2, 1/4 or 1/8 scale and
/// each band is box-reduced at once into the (much smaller) pre-reduced
/// image the kernel then resamples. A 10000x10000 photo thumbnailed to
/// 256 px thus costs its 1/8 decode's 1250x1250 pixels a band at a time
/// (a few hundred KB) plus 625x625 pre-reduced, instead of 6 MB plus that.
///
/// The pixels are exactly what decoding (``JPEGCoder``) then
/// ``Resampler/resample(_:to:kernel:colorSpace:reducingGap:)`` makes: the
/// same scale, the same scans, the same box factors and the same extents.
enum JPEGThumbnailDecoder {
  /// The thumbnail of JPEG `data` fitted inside `box`, when the registry
  /// would decode it with the built-in ``JPEGCoder``; `nil` for anything
  /// else (other formats, a user's JPEG coder), which the caller decodes
  /// the ordinary way. Throws what decoding would.
  static func thumbnail(
    _ data: Data, fitting box: PixelSize, kernel: ResamplingKernel, options: ImageProcessingOptions
  ) throws(MagpieError) -> Image? {
    guard ImageFormat.sniff(data) == .jpeg, let coder = options.registry.decoder(for: data) as? JPEGCoder else {
      return nil
    }
    let decodeOptions = options.decodeOptions
    let result: Result<Reduced, MagpieError> = data.withUnsafeBytes { bytes in
      Result { () throws(MagpieError) in
        try decode(
          bytes, fitting: box, options: decodeOptions, reducingGap: 2, coder: coder, kernel: kernel)
      }
    }
    let decoded = try result.get()
    let target = decoded.scaledSize.fitting(in: box)
    var pixels = decoded.pixels
    if !decoded.isResampled && target != decoded.scaledSize {
      pixels = Resampler.convolve(
        pixels, extentX: decoded.extentX, extentY: decoded.extentY, to: target, kernel: kernel)
    }
    // Colour converts last, on the small image (it bypasses the registry).
    if let transform = decoded.color.rgbTransform { SRGBConversion.convert(&pixels, with: transform) }
    var image = Image(
      frames: [ImageFrame(pixels: pixels)], format: .jpeg, scale: decodeOptions.scale,
      orientation: decoded.orientation, isPartial: decoded.isPartial)
    image.colorProfile = decoded.color.attached
    return image
  }

  /// What a streaming decode made: the box-reduced pixels (upright) and
  /// how many source pixels of the DCT-scaled image they span, plus what
  /// the decoded ``Image`` would have carried.
  struct Reduced {
    /// The DCT-scaled image's size, upright.
    var scaledSize: PixelSize
    var pixels: PixelBuffer
    var extentX: Double
    var extentY: Double
    var orientation: ImageOrientation
    var isPartial: Bool
    /// Whether both kernel passes already ran (the row pass band by band
    /// as decoding went, or over the turned copy of a rotated image):
    /// `pixels` is then the fitted thumbnail.
    var isResampled = false
    /// The colour conversion still to run (a CMYK one ran while decoding).
    var color = JPEGColorPlan()
  }

  /// Rows libjpeg writes per call, rounded up to whole box blocks: enough
  /// to keep the per-call cost negligible, few enough to stay in cache.
  static let bandRows = 32

  /// Decodes `bytes` at the scale `options` (with `box` as the aspect-fit
  /// target) asks for, box-reducing as ``Resampler`` would for a target
  /// that fits `box`, with `reducingGap`, and the scan and progressive
  /// decoder choices of `coder`. With a `kernel`, an upright
  /// image also gets that kernel's row pass to the fitted width, run band
  /// by band as decoding goes, and then the column pass, and a rotated one
  /// both passes over its turned copy (see ``Reduced/isResampled``).
  static func decode(
    _ bytes: UnsafeRawBufferPointer, fitting box: PixelSize, options: DecodeOptions, reducingGap: Double?,
    coder: JPEGCoder, kernel: ResamplingKernel? = nil
  ) throws(MagpieError) -> Reduced {
    var options = options
    options.targetSize = box
    options.contentMode = .aspectFit
    let (decompressor, size, orientation, applied, color) = try JPEGCoder.startDecompressing(
      bytes, options: options, coder: coder)

    // The box factors resample would pick for the upright image, turned
    // back to the stored axes.
    let upright = applied.displayedSize(of: size)
    let target = upright.fitting(in: box)
    var (factorX, factorY) = Resampler.boxFactors(from: upright, to: target, reducingGap: reducingGap)
    if applied.swapsDimensions { (factorX, factorY) = (factorY, factorX) }
    // Blocks line up with the upright image's top-left corner, which in
    // stored pixels may be the right or bottom edge: then the first block
    // of a row (or of the rows) is the short one.
    let endAlignedX: Set<ImageOrientation> = [.upMirrored, .down, .rightMirrored, .left]
    let endAlignedY: Set<ImageOrientation> = [.down, .downMirrored, .right, .rightMirrored]
    let offsetX = endAlignedX.contains(applied) ? (factorX - size.width % factorX) % factorX : 0
    let offsetY = endAlignedY.contains(applied) ? (factorY - size.height % factorY) % factorY : 0
    let rowsPerBand = max(1, bandRows / factorY) * factorY
    let outW = (size.width + offsetX + factorX - 1) / factorX
    let outH = (size.height + offsetY + factorY - 1) / factorY
    let geometry = BandGeometry(
      size: size, factorX: factorX, factorY: factorY, offsetX: offsetX, offsetY: offsetY,
      rowsPerBand: rowsPerBand, outputWidth: outW)
    var extentX = Double(size.width) / Double(factorX)
    var extentY = Double(size.height) / Double(factorY)
    // Upright images whose kernel pass starts along rows run that pass on
    // each band as soon as it is reduced.
    var reduced: PixelBuffer
    var isResampled = false
    let reducedSize = PixelSize(width: outW, height: outH)
    if let kernel, applied == .up,
      Resampler.neededPasses(reducedSize, extentX: extentX, extentY: extentY, to: target).rows,
      Resampler.runsRowsFirst(reducedSize, extentX: extentX, extentY: extentY, to: target)
    {
      // Only a band of the reduced image exists at a time, and the row
      // pass's output is reused scratch: fresh pages for each thumbnail's
      // intermediate images cost more than the passes over them.
      let rowWeights = ResamplingWeightsCache.weights(
        inputCount: outW, inputExtent: extentX, outputCount: target.width, kernel: kernel)
      let rowBytes = target.width * PixelBuffer.bytesPerPixel
      reduced = try Resampler.withScratch(holding: rowBytes * outH) {
        (horizontal: UnsafeMutableRawPointer) throws(MagpieError) -> PixelBuffer in
        try fused(decompressor, geometry, rowPassInto: horizontal, weights: rowWeights)
        // The rows are done: the column pass, or a copy when none is needed.
        return Resampler.convolve(
          horizontal, size: PixelSize(width: target.width, height: outH), stride: rowBytes, opaque: true,
          premultiplies: false, extentX: Double(target.width), extentY: extentY, to: target, kernel: kernel)
      }
      isResampled = true
    } else if let kernel, applied != .up {
      // Turned images: the reduced image, its upright copy and the pass
      // between the kernel's two all live in pooled scratch, so only the
      // thumbnail is fresh memory (the same pixels as turning a whole
      // reduced image, then resampling it).
      let stored = PixelSize(width: outW, height: outH)
      let storedBytes = outW * outH * PixelBuffer.bytesPerPixel
      if applied.swapsDimensions { (extentX, extentY) = (extentY, extentX) }
      reduced = try Resampler.withScratch(holding: storedBytes) {
        (storedPixels: UnsafeMutableRawPointer) throws(MagpieError) -> PixelBuffer in
        try geometry.read(decompressor, into: storedPixels) { _, _ in }
        return Resampler.withScratch(holding: storedBytes) { turned in
          PixelBuffer.turn(storedPixels, size: stored, stride: outW * PixelBuffer.bytesPerPixel, applied, into: turned)
          let upright = applied.displayedSize(of: stored)
          return Resampler.convolve(
            turned, size: upright, stride: upright.width * PixelBuffer.bytesPerPixel, opaque: true,
            premultiplies: false, extentX: extentX, extentY: extentY, to: target, kernel: kernel)
        }
      }
      isResampled = true
    } else {
      reduced = try PixelBuffer(uninitializedWidth: outW, height: outH, alpha: .premultiplied) {
        (out: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
        try geometry.read(decompressor, into: out.baseAddress!) { _, _ in }
        return true
      }
    }
    decompressor.finish()
    let isPartial = decompressor.isIncomplete
    if isPartial && !options.allowsPartialImage { throw decompressor.truncationError }
    if applied != .up && !isResampled {
      reduced = reduced.applying(applied)
      if applied.swapsDimensions { (extentX, extentY) = (extentY, extentX) }
    }
    return Reduced(
      scaledSize: upright, pixels: reduced, extentX: extentX, extentY: extentY, orientation: orientation,
      isPartial: isPartial, isResampled: isResampled, color: color)
  }

  /// Decodes and reduces band by band, running the kernel's row pass over
  /// each band while it is still in cache. (Running it on another core
  /// instead measured no faster at best and slower on a busy machine.)
  private static func fused(
    _ decompressor: JPEGDecompressor, _ geometry: BandGeometry, rowPassInto horizontal: UnsafeMutableRawPointer,
    weights: ResamplingWeights
  ) throws(MagpieError) {
    let failure: MagpieError? = weights.pairs.withUnsafeBytes { pairs in
      weights.starts.withUnsafeBufferPointer { starts in
        do throws(MagpieError) {
          try geometry.read(decompressor, into: nil) { band, rows in
            let pass = Resampler.RowPass(
              source: band, sourceWidth: geometry.outputWidth, stride: geometry.outputWidth * 4,
              destination: horizontal, width: weights.outputCount, pairCount: weights.pairCount,
              starts: starts.baseAddress!, weights: pairs.baseAddress!, sourceFirstRow: rows.lowerBound)
            pass.run(rows, opaque: true)
          }
          return nil
        } catch {
          return error
        }
      }
    }
    if let failure { throw failure }
  }

  /// How a scaled decode is cut into bands and box-reduced.
  private struct BandGeometry {
    let size: PixelSize
    let factorX: Int
    let factorY: Int
    let offsetX: Int
    let offsetY: Int
    let rowsPerBand: Int
    let outputWidth: Int

    /// Reads every row from libjpeg, box-reducing band by band, and reports
    /// each range of finished reduced rows with where its first row lies:
    /// in `out` (the whole reduced image) when there is one, else in a
    /// band-sized buffer reused for every band.
    func read(
      _ decompressor: JPEGDecompressor, into out: UnsafeMutableRawPointer?,
      finished: (UnsafeRawPointer, Range<Int>) -> Void
    ) throws(MagpieError) {
      let rowBytes = size.width * PixelBuffer.bytesPerPixel
      let outputRowBytes = outputWidth * PixelBuffer.bytesPerPixel
      if factorX == 1 && factorY == 1 {
        // Nothing to reduce: libjpeg writes the pixels where they go.
        let band = out == nil ? UnsafeMutableRawPointer.allocate(byteCount: rowBytes * rowsPerBand, alignment: 16) : nil
        defer { band?.deallocate() }
        var y = 0
        while y < size.height {
          let rows = min(rowsPerBand, size.height - y)
          let target = band ?? out! + y * rowBytes
          try decompressor.readRows(into: target, stride: rowBytes, count: rows)
          finished(target, y..<(y + rows))
          y += rows
        }
        return
      }
      let band = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * rowsPerBand, alignment: 16)
      defer { band.deallocate() }
      let reducedBand =
        out == nil
        ? UnsafeMutableRawPointer.allocate(byteCount: outputRowBytes * (rowsPerBand / factorY + 1), alignment: 16)
        : nil
      defer { reducedBand?.deallocate() }
      var y = 0
      var outRow = 0
      while y < size.height {
        // The first band ends on a block boundary whatever the offset.
        let rows = min((y == 0 ? rowsPerBand - offsetY : rowsPerBand), size.height - y)
        try decompressor.readRows(into: band, stride: rowBytes, count: rows)
        let reducer = Resampler.BoxBand(
          source: band, stride: rowBytes, width: size.width, height: rows, factorX: factorX, factorY: factorY,
          offsetX: offsetX, offsetY: y == 0 ? offsetY : 0)
        let target = reducedBand ?? out! + outRow * outputRowBytes
        reducer.reduce(0..<reducer.outputHeight, into: target)
        finished(target, outRow..<(outRow + reducer.outputHeight))
        outRow += reducer.outputHeight
        y += rows
      }
    }
  }
}
