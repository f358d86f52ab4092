/// Filter taps for one axis: for each output pixel, the first source pixel
/// of its window and one weight per source pixel in the window.
///
/// Every window has the same number of taps (`taps`), padded with zero
/// weights and shifted to stay inside the source, so the inner loops need no
/// bounds logic. Weights exist twice: as 14-bit fixed point (`Int16`, for the
/// 8-bit sRGB passes, where `Int16 × UInt8` products let LLVM use SSE2's
/// `pmaddwd`) and as `Float` (for the linear-light passes).
struct ResamplingWeights {
  /// Fixed-point weights are integers scaled by 2^14: a weight of 1 is 16384,
  /// small enough that the largest Lanczos lobe fits an `Int16` and that
  /// 255 × the sum of absolute weights fits an `Int32` accumulator, precise
  /// enough that rounding moves an 8-bit result by well under one level.
  static let precisionBits: Int32 = 14

  /// The number of output pixels.
  let outputCount: Int
  /// Taps per output pixel; even whenever the source has that many pixels,
  /// so the convolution can take taps two at a time.
  let taps: Int
  /// First source index of each output pixel's window; `starts[i] + taps`
  /// never exceeds the source length.
  let starts: [Int]
  /// `outputCount * taps` fixed-point weights, each window summing to
  /// exactly 2^14 so flat areas stay exactly flat.
  let fixed: [Int16]
  /// `outputCount * taps` weights, each window summing to 1.
  let float: [Float]

  /// Taps mapping the source span `[0, inputExtent)` (at most `inputCount`
  /// pixels; less when a box pre-reduce left a partial last block) onto
  /// `outputCount` pixels with `kernel`. When shrinking, the kernel is
  /// widened by the shrink factor so every source pixel counts (no aliasing).
  init(inputCount: Int, inputExtent: Double? = nil, outputCount: Int, kernel: ResamplingKernel) {
    precondition(inputCount > 0 && outputCount > 0)
    let extent = min(inputExtent ?? Double(inputCount), Double(inputCount))
    let scale = extent / Double(outputCount)
    let filterScale = max(scale, 1)
    let support = kernel.support * filterScale
    var taps = min(Int(support.rounded(.up)) * 2 + 1, inputCount)
    if taps % 2 == 1 && taps < inputCount { taps += 1 }
    var starts = [Int](repeating: 0, count: outputCount)
    var fixed = [Int16](repeating: 0, count: outputCount * taps)
    var float = [Float](repeating: 0, count: outputCount * taps)
    var window = [Double](repeating: 0, count: taps)
    let one = Double(1 << Self.precisionBits)
    for out in 0..<outputCount {
      let center = (Double(out) + 0.5) * scale
      // The source pixels whose centres fall inside the kernel's support.
      var first = max(Int((center - support + 0.5).rounded(.down)), 0)
      var end = min(Int((center + support + 0.5).rounded(.down)), inputCount)
      if end - first > taps { (first, end) = Self.nearestWindow(first, end, taps: taps, center: center) }
      end = max(end, first + 1)
      var total = 0.0
      for k in 0..<taps { window[k] = 0 }
      for i in first..<end {
        let w = kernel.weight((Double(i) + 0.5 - center) / filterScale)
        window[i - first] = w
        total += w
      }
      if total == 0 {
        // A window that misses every lobe (only at tiny sizes): nearest pixel.
        window[min(max(Int(center) - first, 0), end - first - 1)] = 1
        total = 1
      }
      // Shift the window left so that all `taps` entries lie in the source.
      let start = max(0, min(first, inputCount - taps))
      let offset = first - start
      var sum = 0
      var largest = offset
      for k in 0..<(end - first) {
        let value = window[k] / total
        let q = Int((value * one).rounded())
        fixed[out * taps + offset + k] = Int16(q)
        float[out * taps + offset + k] = Float(value)
        sum += q
        if abs(window[k]) > abs(window[largest - offset]) { largest = offset + k }
      }
      // Rounding can leave the sum a few units off 2^14; the biggest weight
      // absorbs the difference, so a constant row maps to the same constant.
      fixed[out * taps + largest] = Int16(Int(fixed[out * taps + largest]) + (1 << Self.precisionBits) - sum)
      starts[out] = start
    }
    self.outputCount = outputCount
    self.taps = taps
    self.starts = starts
    self.fixed = fixed
    self.float = float
  }

  /// The `taps` pixels of `first..<end` closest to `center`.
  private static func nearestWindow(_ first: Int, _ end: Int, taps: Int, center: Double) -> (Int, Int) {
    var lo = first
    var hi = end
    while hi - lo > taps {
      // Drop whichever end pixel's centre lies farther from the centre.
      if center - (Double(lo) + 0.5) > (Double(hi) - 0.5) - center { lo += 1 } else { hi -= 1 }
    }
    return (lo, hi)
  }
}
