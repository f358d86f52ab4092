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
  /// The fixed-point weights as pairs for the row pass: for each output
  /// pixel, `pairCount` groups of eight `Int16`s, `(w0, w1)` four times
  /// (one pair of taps for each channel), zero past the last tap.
  let pairs: [Int16]
  /// Pairs of taps per output pixel, `taps / 2` rounded up.
  var pairCount: Int { (taps + 1) / 2 }

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
    // Each output's window: the source pixels whose centres fall strictly
    // inside the kernel's support (at least one pixel).
    var windows = [(first: Int, end: Int)]()
    windows.reserveCapacity(outputCount)
    var widest = 1
    for out in 0..<outputCount {
      let center = (Double(out) + 0.5) * scale
      let first = min(max(Int((center - support + 0.5).rounded(.down)), 0), inputCount - 1)
      let end = max(min(Int((center + support + 0.5).rounded(.down)), inputCount), first + 1)
      windows.append((first, end))
      widest = max(widest, end - first)
    }
    // An even number of taps when the source allows, so the row pass can
    // take them in pairs.
    var taps = min(widest, inputCount)
    if taps % 2 == 1 && taps < inputCount { taps += 1 }
    var starts = [Int](repeating: 0, count: outputCount)
    var fixed = [Int16](repeating: 0, count: outputCount * taps)
    var float = [Float](repeating: 0, count: outputCount * taps)
    var window = [Double](repeating: 0, count: taps)
    let one = Double(1 << Self.precisionBits)
    for out in 0..<outputCount {
      let center = (Double(out) + 0.5) * scale
      let (first, end) = windows[out]
      var total = 0.0
      for k in 0..<taps { window[k] = 0 }
      for i in first..<end {
        let w = kernel.fastWeight((Double(i) + 0.5 - center) / filterScale)
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
    let pairCount = (taps + 1) / 2
    var pairs = [Int16](repeating: 0, count: outputCount * pairCount * 8)
    for out in 0..<outputCount {
      for j in 0..<pairCount {
        let w0 = fixed[out * taps + 2 * j]
        let w1 = 2 * j + 1 < taps ? fixed[out * taps + 2 * j + 1] : 0
        for lane in 0..<4 {
          pairs[(out * pairCount + j) * 8 + 2 * lane] = w0
          pairs[(out * pairCount + j) * 8 + 2 * lane + 1] = w1
        }
      }
    }
    self.outputCount = outputCount
    self.taps = taps
    self.starts = starts
    self.fixed = fixed
    self.float = float
    self.pairs = pairs
  }
}
