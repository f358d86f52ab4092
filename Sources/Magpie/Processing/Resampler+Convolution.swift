import CMagpieCodecs

extension Resampler {
  /// The row pass from `height` rows of `width` pixels at `source`,
  /// `stride` bytes apart, into packed rows at `destination`: each row
  /// resampled to `weights.outputCount` premultiplied pixels, in
  /// gamma-encoded values, fixed point.
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
  /// Straight pixels (`premultiplies`) are premultiplied a row at a time as
  /// the pass reads them, in cache, instead of in a whole-image pass of
  /// their own.
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

  /// The kernel passes over the 8-bit pixels of `size` at `source`, rows
  /// `stride` bytes apart, whose content spans `extentX` × `extentY` source
  /// pixels (less than the buffer when a box reduce left partial blocks).
  /// Straight pixels (`premultiplies`) are premultiplied as the first pass
  /// reads them; `opaque` when every alpha is 255. The image between the
  /// two passes lives in ``scratch``: only the result is fresh memory.
  static func convolve(
    _ source: UnsafeRawPointer, size: PixelSize, stride: Int, opaque: Bool, premultiplies: Bool,
    extentX: Double, extentY: Double, to target: PixelSize, kernel: ResamplingKernel
  ) -> PixelBuffer {
    let packed = size.width * PixelBuffer.bytesPerPixel
    func rowWeights() -> ResamplingWeights {
      ResamplingWeightsCache.weights(
        inputCount: size.width, inputExtent: extentX, outputCount: target.width, kernel: kernel)
    }
    func columnWeights() -> ResamplingWeights {
      ResamplingWeightsCache.weights(
        inputCount: size.height, inputExtent: extentY, outputCount: target.height, kernel: kernel)
    }
    /// The row pass from `height` rows at `pixels` into a new buffer.
    func rows(from pixels: UnsafeRawPointer, height: Int, stride: Int, premultiplies: Bool) -> PixelBuffer {
      PixelBuffer(uninitializedWidth: target.width, height: height, alpha: .premultiplied) { out in
        rowPass(
          pixels, width: size.width, height: height, stride: stride, into: out.baseAddress!, opaque: opaque,
          premultiplies: premultiplies, rowWeights())
        return opaque
      }
    }
    /// `body` over the source premultiplied: the column pass reads whole
    /// columns, so straight pixels are premultiplied into scratch first.
    func premultipliedSource<R>(_ body: (UnsafeRawPointer, _ stride: Int) -> R) -> R {
      guard premultiplies else { return body(source, stride) }
      return withScratch(holding: packed * size.height) { copy in
        _ = mp_premultiply_copy(
          source.assumingMemoryBound(to: UInt8.self), stride, copy.assumingMemoryBound(to: UInt8.self), packed,
          size.width, size.height)
        return body(copy, packed)
      }
    }
    switch neededPasses(size, extentX: extentX, extentY: extentY, to: target) {
    case (false, false):
      return premultipliedSource { pixels, stride in
        PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .premultiplied) { out in
          for y in 0..<size.height {
            (out.baseAddress! + y * packed).copyMemory(from: pixels + y * stride, byteCount: packed)
          }
          return opaque
        }
      }
    case (true, false):
      return rows(from: source, height: size.height, stride: stride, premultiplies: premultiplies)
    case (false, true):
      return premultipliedSource { convolveColumns($0, width: size.width, stride: $1, opaque: opaque, columnWeights()) }
    case (true, true):
      guard runsRowsFirst(size, extentX: extentX, extentY: extentY, to: target) else {
        return premultipliedSource { pixels, stride in
          withScratch(holding: packed * target.height) { between in
            columnPass(pixels, width: size.width, stride: stride, into: between, opaque: opaque, columnWeights())
            return rows(from: between, height: target.height, stride: packed, premultiplies: false)
          }
        }
      }
      let rowBytes = target.width * PixelBuffer.bytesPerPixel
      return withScratch(holding: rowBytes * size.height) { between in
        rowPass(
          source, width: size.width, height: size.height, stride: stride, into: between, opaque: opaque,
          premultiplies: premultiplies, rowWeights())
        return convolveColumns(between, width: target.width, stride: rowBytes, opaque: opaque, columnWeights())
      }
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
