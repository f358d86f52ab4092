import CMagpieCodecs
import Testing

/// The fast path's row unfiltering (magpie_png_fast.c) against the PNG
/// specification's five filters, computed here byte by byte.
@Suite struct PNGUnfilterTests {
  @Test func unfilterRowFollowsTheSpecification() {
    var random = SplitMix64(seed: 42)
    for bpp in 1...4 {
      for pixels in 0..<40 {
        let count = pixels * bpp
        let filtered = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let prior = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for filter in 0...4 {
          var expected = filtered
          for i in 0..<count {
            let a = i >= bpp ? Int(expected[i - bpp]) : 0
            let b = Int(prior[i])
            let c = i >= bpp ? Int(prior[i - bpp]) : 0
            let predicted = [0, a, b, (a + b) / 2, PNGStreamBuilder.paeth(a, b, c)][filter]
            expected[i] = UInt8(truncatingIfNeeded: Int(filtered[i]) + predicted)
          }
          var row = filtered
          let ok = row.withUnsafeMutableBufferPointer { rowBuffer in
            prior.withUnsafeBufferPointer { priorBuffer in
              mp_png_fast_unfilter_row(
                rowBuffer.baseAddress ?? UnsafeMutablePointer(mutating: priorBuffer.baseAddress),
                priorBuffer.baseAddress ?? UnsafePointer(rowBuffer.baseAddress), count, UInt32(bpp), UInt32(filter))
            }
          }
          #expect(ok == 1 || count == 0)
          #expect(row == expected, "bpp \(bpp), \(pixels) pixels, filter \(filter)")
        }
      }
    }
    var row: [UInt8] = [1, 2, 3]
    let prior: [UInt8] = [4, 5, 6]
    #expect(mp_png_fast_unfilter_row(&row, prior, 3, 1, 5) == 0)
    #expect(row == [1, 2, 3])
  }
}
