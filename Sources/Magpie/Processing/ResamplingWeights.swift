/// Fixed-point filter taps for one axis: for each output pixel, the first
/// source pixel it reads and one weight per source pixel it reads.
struct ResamplingWeights {
  /// Weights are integers scaled by 2^22: enough precision that rounding
  /// never shows in 8-bit output, small enough that 255 × the sum of the
  /// absolute weights fits an `Int32` accumulator.
  static let precisionBits: Int32 = 22

  /// The number of output pixels.
  let outputCount: Int
  /// Taps per output pixel (the widest window; narrower ones are padded with
  /// zero weights so every window has the same stride).
  let taps: Int
  /// First source index of each output pixel's window.
  let starts: [Int]
  /// Live taps of each window (the rest are zero padding).
  let counts: [Int]
  /// `outputCount * taps` weights.
  let weights: [Int32]

  /// Taps mapping `inputCount` source pixels onto `outputCount` pixels with
  /// `kernel`, widened by the shrink factor when shrinking so every source
  /// pixel counts (no aliasing).
  init(inputCount: Int, outputCount: Int, kernel: ResamplingKernel) {
    precondition(inputCount > 0 && outputCount > 0)
    let scale = Double(inputCount) / Double(outputCount)
    let filterScale = max(scale, 1)
    let support = kernel.support * filterScale
    let taps = min(Int(support.rounded(.up)) * 2 + 1, inputCount)
    var starts = [Int](repeating: 0, count: outputCount)
    var counts = [Int](repeating: 0, count: outputCount)
    var weights = [Int32](repeating: 0, count: outputCount * taps)
    var window = [Double](repeating: 0, count: taps)
    let one = Double(1 << Self.precisionBits)
    for out in 0..<outputCount {
      let center = (Double(out) + 0.5) * scale
      var first = max(Int(center - support + 0.5), 0)
      let end = min(Int(center + support + 0.5), inputCount)
      // Keep the window inside `taps` even when rounding widens it by one.
      first = max(first, end - taps)
      let count = max(end - first, 1)
      var total = 0.0
      for k in 0..<count {
        let w = kernel.weight((Double(first + k) - center + 0.5) / filterScale)
        window[k] = w
        total += w
      }
      if total == 0 {
        // A window that misses every lobe (only at tiny sizes): nearest pixel.
        for k in 0..<count { window[k] = 0 }
        window[min(max(Int(center) - first, 0), count - 1)] = 1
        total = 1
      }
      for k in 0..<count {
        weights[out * taps + k] = Int32((window[k] / total * one).rounded())
      }
      starts[out] = first
      counts[out] = count
    }
    self.outputCount = outputCount
    self.taps = taps
    self.starts = starts
    self.counts = counts
    self.weights = weights
  }
}
