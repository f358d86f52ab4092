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
    let width = weights.outputCount
    let height = source.height
    let opaque = source.isOpaque
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .premultiplied) { out in
      source.withUnsafeBytes { raw in
        weights.pairs.withUnsafeBytes { pairs in
          weights.starts.withUnsafeBufferPointer { starts in
            let pass = RowPass(
              source: raw.baseAddress!, sourceWidth: source.width, stride: source.bytesPerRow,
              destination: out.baseAddress!, width: width, pairCount: weights.pairCount,
              starts: starts.baseAddress!, weights: pairs.baseAddress!, premultiplies: premultiplies)
            RowParallelism.run(height, costPerRow: width * weights.taps + source.width) { rows in
              pass.run(rows, opaque: opaque)
            }
          }
        }
      }
      return opaque
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
    let height = weights.outputCount
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .premultiplied) { out in
      weights.fixed.withUnsafeBytes { fixed in
        weights.starts.withUnsafeBufferPointer { starts in
          let pass = ColumnPass(
            source: source, stride: stride, destination: out.baseAddress!, rowBytes: width * 4, taps: weights.taps,
            starts: starts.baseAddress!, weights: fixed.baseAddress!)
          RowParallelism.run(height, costPerRow: width * weights.taps) { rows in pass.run(rows, opaque: opaque) }
        }
      }
      return opaque
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
