extension Resampler {
  /// The mean of each `factorX` × `factorY` block of pixels, rounded.
  /// Partial blocks at the right and bottom edges average the pixels they
  /// have. Averages of premultiplied pixels stay valid premultiplied pixels.
  public static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int) -> PixelBuffer {
    precondition(factorX >= 1 && factorY >= 1, "box factors must be at least 1")
    if factorX == 1 && factorY == 1 { return source }
    let outW = (source.width + factorX - 1) / factorX
    let outH = (source.height + factorY - 1) / factorY
    return PixelBuffer(uninitializedWidth: outW, height: outH) { out in
      let dst = out.baseAddress!
      source.withUnsafeBytes { raw in
        let src = raw.baseAddress!
        RowParallelism.run(outH, costPerRow: outW &* factorX &* factorY) { rows in
          for oy in rows {
            let outRow = dst + oy &* outW &* 4
            let y0 = oy &* factorY
            let rowCount = min(factorY, source.height &- y0)
            let firstRow = src + y0 &* source.bytesPerRow
            var ox = 0
            if factorX == 2 && rowCount == 2 {
              // The common thumbnail step: 2x2 blocks, two blocks a step.
              let below = firstRow + source.bytesPerRow
              while ox &+ 2 <= source.width / 2 {
                let a = SIMD16<UInt16>(
                  truncatingIfNeeded: firstRow.loadUnaligned(fromByteOffset: ox &* 8, as: SIMD16<UInt8>.self))
                let b = SIMD16<UInt16>(
                  truncatingIfNeeded: below.loadUnaligned(fromByteOffset: ox &* 8, as: SIMD16<UInt8>.self))
                let s = a &+ b
                let left = s.lowHalf.lowHalf &+ s.lowHalf.highHalf
                let right = s.highHalf.lowHalf &+ s.highHalf.highHalf
                let mean = (SIMD8(lowHalf: left, highHalf: right) &+ 2) &>> 2
                outRow.storeBytes(
                  of: SIMD8<UInt8>(truncatingIfNeeded: mean), toByteOffset: ox &* 4, as: SIMD8<UInt8>.self)
                ox &+= 2
              }
            }
            while ox < outW {
              let x0 = ox &* factorX
              let columnCount = min(factorX, source.width &- x0)
              var sum = SIMD4<UInt32>.zero
              var row = firstRow + x0 &* 4
              for _ in 0..<rowCount {
                for k in 0..<columnCount {
                  sum &+= SIMD4<UInt32>(
                    truncatingIfNeeded: row.loadUnaligned(fromByteOffset: k &* 4, as: SIMD4<UInt8>.self))
                }
                row += source.bytesPerRow
              }
              let count = UInt32(rowCount &* columnCount)
              let mean = (sum &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
              outRow.storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: mean), toByteOffset: ox &* 4, as: SIMD4<UInt8>.self)
              ox &+= 1
            }
          }
        }
      }
      return source.isOpaque
    }
  }
}
