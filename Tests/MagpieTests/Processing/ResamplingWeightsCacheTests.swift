import Testing

@testable import Magpie

/// ``ResamplingWeightsCache`` hands out exactly the weights a fresh
/// ``ResamplingWeights`` makes, keyed by every input that changes them.
@Suite struct ResamplingWeightsCacheTests {
  private func same(_ a: ResamplingWeights, _ b: ResamplingWeights) -> Bool {
    a.outputCount == b.outputCount && a.taps == b.taps && a.starts == b.starts && a.fixed == b.fixed
      && a.float == b.float && a.pairs == b.pairs
  }

  @Test func cachedWeightsAreTheWeightsMadeFresh() {
    // Extents and kernels that differ only slightly must not share weights.
    let cases: [(Int, Double?, Int, ResamplingKernel)] = [
      (300, nil, 256, .lanczos3), (300, 299.5, 256, .lanczos3), (300, nil, 256, .bilinear), (300, nil, 255, .lanczos3),
      (301, nil, 256, .lanczos3), (200, 200, 171, .catmullRom),
    ]
    for _ in 0..<2 {
      for (count, extent, output, kernel) in cases {
        let cached = ResamplingWeightsCache.weights(
          inputCount: count, inputExtent: extent, outputCount: output, kernel: kernel)
        let fresh = ResamplingWeights(inputCount: count, inputExtent: extent, outputCount: output, kernel: kernel)
        #expect(same(cached, fresh), "\(count) \(String(describing: extent)) \(output) \(kernel)")
      }
    }
  }

  @Test func moreSizesThanTheCapacityStillGiveTheRightWeights() {
    for output in 1...(ResamplingWeightsCache.capacity * 2 + 3) {
      let cached = ResamplingWeightsCache.weights(inputCount: 97, outputCount: output, kernel: .lanczos3)
      #expect(same(cached, ResamplingWeights(inputCount: 97, outputCount: output, kernel: .lanczos3)))
    }
  }
}
