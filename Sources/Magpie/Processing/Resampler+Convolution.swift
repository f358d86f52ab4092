import CMagpieCodecs

extension Resampler {
  /// Resamples each row of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  ///
  /// Each source row is first spread into a line of `Int16` pairs, entry
  /// `k` holding pixels `k` and `k + 1` channel by channel (`r_k, r_k+1,
  /// g_k, g_k+1, ...`). Against weight pairs laid out the same way, one
  /// `Int16` multiply-and-add-adjacent (SSE2's `pmaddwd`; two output
  /// pixels per AVX2 `vpmaddwd`) then does two taps of all four channels:
  /// half the instructions of one tap at a time. The loops are C
  /// (`magpie_resample.c`): Swift packages cannot raise the x86-64 baseline,
  /// and a C function can be built for AVX2 and chosen at run time.
  ///
  /// Straight pixels are premultiplied a row at a time as the pass reads
  /// them, in cache, instead of in a whole-image pass of their own.
  static func convolveRows(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let premultiplies = source.alphaRepresentation == .straight && !source.isOpaque
    let opaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: weights.outputCount, height: source.height, alpha: .premultiplied) { out in
      source.withUnsafeBytes { raw in
        rowPass(
          raw.baseAddress!, width: source.width, height: source.height, stride: source.bytesPerRow,
          into: out.baseAddress!, opaque: opaque, premultiplies: premultiplies, weights)
      }
      return opaque
    }
  }

  /// The row pass from `height` rows of `width` pixels at `source`,
  /// `stride` bytes apart, into packed rows at `destination`.
  static func rowPass(
    _ source: UnsafeRawPointer, width sourceWidth: Int, height: Int, stride: Int,
    into destination: UnsafeMutableRawPointer, opaque: Bool, premultiplies: Bool = false, _ weights: ResamplingWeights
  ) {
    let width = weights.outputCount
    weights.pairs.withUnsafeBytes { pairs in
      weights.starts.withUnsafeBufferPointer { starts in
        let pass = RowPass(
          source: source, sourceWidth: sourceWidth, stride: stride, destination: destination, width: width,
          pairCount: weights.pairCount, starts: starts.baseAddress!, weights: pairs.baseAddress!,
          premultiplies: premultiplies)
        RowParallelism.run(height, costPerRow: width * weights.taps + sourceWidth) { rows in
          pass.run(rows, opaque: opaque)
        }
      }
    }
  }

  /// ``convolve(_:extentX:extentY:to:kernel:)`` over the opaque pixels of
  /// `size` at `source` (packed rows), with the image between the two
  /// passes in ``scratch``: only the result is fresh memory. The same
  /// passes in the same order, so the same pixels.
  static func convolveOpaque(
    _ source: UnsafeRawPointer, size: PixelSize, extentX: Double, extentY: Double, to target: PixelSize,
    kernel: ResamplingKernel
  ) -> PixelBuffer {
    let stride = size.width * PixelBuffer.bytesPerPixel
    func rowWeights() -> ResamplingWeights {
      ResamplingWeightsCache.weights(
        inputCount: size.width, inputExtent: extentX, outputCount: target.width, kernel: kernel)
    }
    func columnWeights() -> ResamplingWeights {
      ResamplingWeightsCache.weights(
        inputCount: size.height, inputExtent: extentY, outputCount: target.height, kernel: kernel)
    }
    func rows(from pixels: UnsafeRawPointer, height: Int) -> PixelBuffer {
      PixelBuffer(uninitializedWidth: target.width, height: height, alpha: .premultiplied) { out in
        rowPass(
          pixels, width: size.width, height: height, stride: stride, into: out.baseAddress!, opaque: true, rowWeights())
        return true
      }
    }
    switch neededPasses(size, extentX: extentX, extentY: extentY, to: target) {
    case (false, false):
      return PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .premultiplied) { out in
        out.copyMemory(from: UnsafeRawBufferPointer(start: source, count: out.count))
        return true
      }
    case (true, false): return rows(from: source, height: size.height)
    case (false, true): return convolveColumns(source, width: size.width, stride: stride, opaque: true, columnWeights())
    case (true, true):
      guard runsRowsFirst(size, extentX: extentX, extentY: extentY, to: target) else {
        return scratch.withBuffer(holding: stride * target.height) { between in
          columnPass(source, width: size.width, stride: stride, into: between, opaque: true, columnWeights())
          return rows(from: between, height: target.height)
        }
      }
      let rowBytes = target.width * PixelBuffer.bytesPerPixel
      return scratch.withBuffer(holding: rowBytes * size.height) { between in
        rowPass(
          source, width: size.width, height: size.height, stride: stride, into: between, opaque: true, rowWeights())
        return convolveColumns(between, width: target.width, stride: rowBytes, opaque: true, columnWeights())
      }
    }
  }

  /// Resamples each column of 8-bit premultiplied pixels to
  /// `weights.outputCount` pixels, in gamma-encoded values, fixed point.
  static func convolveColumns(_ source: PixelBuffer, _ weights: ResamplingWeights) -> PixelBuffer {
    let source = source.premultiplied()
    return source.withUnsafeBytes { raw in
      convolveColumns(
        raw.baseAddress!, width: source.width, stride: source.bytesPerRow, opaque: source.isOpaque, weights)
    }
  }

  /// The column pass over premultiplied rows of `width` pixels at `source`,
  /// `stride` bytes apart (scratch memory that is no ``PixelBuffer``, as
  /// the JPEG thumbnail's row pass leaves); `opaque` when every alpha is 255.
  static func convolveColumns(
    _ source: UnsafeRawPointer, width: Int, stride: Int, opaque: Bool, _ weights: ResamplingWeights
  ) -> PixelBuffer {
    PixelBuffer(uninitializedWidth: width, height: weights.outputCount, alpha: .premultiplied) { out in
      columnPass(source, width: width, stride: stride, into: out.baseAddress!, opaque: opaque, weights)
      return opaque
    }
  }

  /// The column pass from rows of `width` pixels at `source`, `stride`
  /// bytes apart, into `weights.outputCount` packed rows at `destination`.
  static func columnPass(
    _ source: UnsafeRawPointer, width: Int, stride: Int, into destination: UnsafeMutableRawPointer, opaque: Bool,
    _ weights: ResamplingWeights
  ) {
    weights.fixed.withUnsafeBytes { fixed in
      weights.starts.withUnsafeBufferPointer { starts in
        let pass = ColumnPass(
          source: source, stride: stride, destination: destination, rowBytes: width * 4, taps: weights.taps,
          starts: starts.baseAddress!, weights: fixed.baseAddress!)
        RowParallelism.run(weights.outputCount, costPerRow: width * weights.taps) { rows in
          pass.run(rows, opaque: opaque)
        }
      }
    }
  }

  /// The row pass over a range of rows; pointers stay valid while it runs.
  struct RowPass {
    let source: UnsafeRawPointer
    let sourceWidth: Int
    let stride: Int
    let destination: UnsafeMutableRawPointer
    let width: Int
    let pairCount: Int
    let starts: UnsafePointer<Int>
    let weights: UnsafeRawPointer
    /// Whether source rows are straight and premultiplied on the way in.
    var premultiplies = false
    /// The row `source` points at: a band of rows is read where it lies.
    var sourceFirstRow = 0

    /// Resamples `rows` (`opaque` when every alpha is 255: no clamp to
    /// alpha) with `mp_resample_row`.
    func run(_ rows: Range<Int>, opaque: Bool) {
      let line = UnsafeMutableRawPointer.allocate(byteCount: sourceWidth &* 16, alignment: 16)
      defer { line.deallocate() }
      let scratch = premultiplies ? UnsafeMutableRawPointer.allocate(byteCount: sourceWidth &* 4, alignment: 16) : nil
      defer { scratch?.deallocate() }
      let pairs = weights.assumingMemoryBound(to: Int16.self)
      for y in rows {
        var row = source + (y &- sourceFirstRow) &* stride
        if let scratch {
          mp_premultiply_copy(
            row.assumingMemoryBound(to: UInt8.self), 0, scratch.assumingMemoryBound(to: UInt8.self), 0, sourceWidth, 1)
          row = UnsafeRawPointer(scratch)
        }
        mp_resample_row(
          row.assumingMemoryBound(to: UInt8.self), sourceWidth, line.assumingMemoryBound(to: Int16.self),
          (destination + y &* width &* 4).assumingMemoryBound(to: UInt8.self), width, pairCount, starts, pairs,
          opaque ? 1 : 0)
      }
    }
  }

  /// The column pass over a range of output rows.
  private struct ColumnPass {
    let source: UnsafeRawPointer
    let stride: Int
    let destination: UnsafeMutableRawPointer
    let rowBytes: Int
    let taps: Int
    let starts: UnsafePointer<Int>
    let weights: UnsafeRawPointer

    /// Resamples output `rows` with `mp_resample_columns`.
    func run(_ rows: Range<Int>, opaque: Bool) {
      mp_resample_columns(
        source.assumingMemoryBound(to: UInt8.self), stride, destination.assumingMemoryBound(to: UInt8.self), rowBytes,
        rows.lowerBound, rows.upperBound, taps, starts, weights.assumingMemoryBound(to: Int16.self), opaque ? 1 : 0)
    }
  }
}
