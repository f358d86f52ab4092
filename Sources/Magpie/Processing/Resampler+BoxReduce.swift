import CMagpieCodecs

extension Resampler {
  /// The mean of each `factorX` × `factorY` block of pixels, rounded.
  /// Partial blocks at the right and bottom edges average the pixels they
  /// have. Averages of premultiplied pixels stay valid premultiplied pixels.
  public static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int) -> PixelBuffer {
    precondition(factorX >= 1 && factorY >= 1, "box factors must be at least 1")
    if factorX == 1 && factorY == 1 { return source }
    let outW = (source.width + factorX - 1) / factorX
    let outH = (source.height + factorY - 1) / factorY
    return PixelBuffer(uninitializedWidth: outW, height: outH, alpha: .premultiplied) { out in
      source.withUnsafeBytes { raw in
        var band = BoxBand(
          source: raw.baseAddress!, stride: source.bytesPerRow, width: source.width, height: source.height,
          factorX: factorX, factorY: factorY)
        // Straight rows are premultiplied as each block row is read.
        band.premultiplies = source.alphaRepresentation == .straight && !source.isOpaque
        RowParallelism.run(outH, costPerRow: outW &* factorX &* factorY) { rows in
          band.reduce(rows, into: out.baseAddress!)
        }
      }
      return source.isOpaque
    }
  }

  /// Rows of pixels being box-reduced: a whole image, or a band of one as
  /// a streaming decoder hands it over. Blocks normally start at the first
  /// row and column; with an offset the first block is that much short
  /// (blocks then end exactly at the far edge, which is what reducing an
  /// image and then mirroring it gives). A short last block averages what
  /// it has.
  struct BoxBand {
    let source: UnsafeRawPointer
    let stride: Int
    let width: Int
    let height: Int
    let factorX: Int
    let factorY: Int
    /// Pixels missing from the first block of each row, `0..<factorX`.
    var offsetX = 0
    /// Rows missing from the first block of rows, `0..<factorY`.
    var offsetY = 0
    /// Whether the rows hold straight alpha, premultiplied into a scratch
    /// band (one block row, in cache) before they are averaged.
    var premultiplies = false

    /// Pixels across the reduced rows.
    var outputWidth: Int { (width + offsetX + factorX - 1) / factorX }
    /// Reduced rows this band makes.
    var outputHeight: Int { (height + offsetY + factorY - 1) / factorY }

    /// Writes reduced rows `rows` (counted within this band) to
    /// `destination`, tightly packed from its row 0 = reduced row 0.
    func reduce(_ rows: Range<Int>, into destination: UnsafeMutableRawPointer) {
      // Whole blocks of up to 64 pixels divide by a lookup table of rounded
      // means (vector integer division is four scalar divisions); bigger
      // blocks, which have more to add up anyway, and partial blocks at the
      // edges divide.
      let blockCount = factorX &* factorY
      let means: [UInt8]? =
        blockCount > 2 && blockCount <= 64
        ? (0...(blockCount &* 255)).map { UInt8(($0 &+ blockCount / 2) / blockCount) } : nil
      if let means {
        means.withUnsafeBufferPointer { reduce(rows, into: destination, means: $0.baseAddress) }
      } else {
        reduce(rows, into: destination, means: nil)
      }
    }

    private func reduce(
      _ rows: Range<Int>, into destination: UnsafeMutableRawPointer, means: UnsafePointer<UInt8>?
    ) {
      let outW = outputWidth
      let scratch =
        premultiplies ? UnsafeMutableRawPointer.allocate(byteCount: width &* 4 &* factorY, alignment: 16) : nil
      defer { scratch?.deallocate() }
      let stride = premultiplies ? width &* 4 : self.stride
      for oy in rows {
        let outRow = destination + oy &* outW &* 4
        let y0 = max(oy &* factorY &- offsetY, 0)
        let rowCount = min(oy &* factorY &- offsetY &+ factorY, height) &- y0
        var firstRow = source + y0 &* self.stride
        if let scratch {
          mp_premultiply_copy(
            firstRow.assumingMemoryBound(to: UInt8.self), self.stride, scratch.assumingMemoryBound(to: UInt8.self),
            stride, width, rowCount)
          firstRow = UnsafeRawPointer(scratch)
        }
        var ox = 0
        if factorX == 2 && rowCount == 2 && offsetX == 0 {
          // The common thumbnail step: 2x2 blocks, two blocks a step.
          let below = firstRow + stride
          while ox &+ 2 <= width / 2 {
            // Widened in halves: the SIMD16 conversion is an outlined
            // generic call, the SIMD8 one a single unpack.
            let a = firstRow.loadUnaligned(fromByteOffset: ox &* 8, as: SIMD16<UInt8>.self)
            let b = below.loadUnaligned(fromByteOffset: ox &* 8, as: SIMD16<UInt8>.self)
            let low = SIMD8<UInt16>(truncatingIfNeeded: a.lowHalf) &+ SIMD8<UInt16>(truncatingIfNeeded: b.lowHalf)
            let high = SIMD8<UInt16>(truncatingIfNeeded: a.highHalf) &+ SIMD8<UInt16>(truncatingIfNeeded: b.highHalf)
            let left = low.lowHalf &+ low.highHalf
            let right = high.lowHalf &+ high.highHalf
            let mean = (SIMD8(lowHalf: left, highHalf: right) &+ 2) &>> 2
            outRow.storeBytes(
              of: SIMD8<UInt8>(truncatingIfNeeded: mean), toByteOffset: ox &* 4, as: SIMD8<UInt8>.self)
            ox &+= 2
          }
        }
        while ox < outW {
          let x0 = max(ox &* factorX &- offsetX, 0)
          let columnCount = min(ox &* factorX &- offsetX &+ factorX, width) &- x0
          var sum = SIMD4<UInt32>.zero
          var row = firstRow + x0 &* 4
          for _ in 0..<rowCount {
            for k in 0..<columnCount {
              sum &+= SIMD4<UInt32>(
                truncatingIfNeeded: row.loadUnaligned(fromByteOffset: k &* 4, as: SIMD4<UInt8>.self))
            }
            row += stride
          }
          let count = UInt32(rowCount &* columnCount)
          let mean: SIMD4<UInt8>
          if let means, count == UInt32(factorX &* factorY) {
            mean = SIMD4(means[Int(sum[0])], means[Int(sum[1])], means[Int(sum[2])], means[Int(sum[3])])
          } else {
            mean = SIMD4<UInt8>(truncatingIfNeeded: (sum &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count))
          }
          outRow.storeBytes(of: mean, toByteOffset: ox &* 4, as: SIMD4<UInt8>.self)
          ox &+= 1
        }
      }
    }
  }
}
