/// The last few sets of ``ResamplingWeights`` made, shared by every
/// resample: thumbnails of one size repeat the same axes again and again,
/// and making a set (a kernel evaluation per tap, then rounding) cost a
/// 256 px JPEG thumbnail 3 % of its time.
///
/// Weights are immutable values (copy-on-write arrays), so a hit hands out
/// the same storage without copying. The cache holds at most ``capacity``
/// sets and starts over when full: the sizes in use are few, and a set is
/// at most a few hundred KB for the very largest axes.
enum ResamplingWeightsCache {
  /// Sets of weights kept at most.
  static let capacity = 32

  /// What makes one set of weights.
  private struct Key: Hashable {
    let inputCount: Int
    // The extent's bits: two extents are the same weights only when equal.
    let extent: UInt64
    let outputCount: Int
    let kernel: ResamplingKernel
  }

  private static let entries = Lock([Key: ResamplingWeights]())

  /// The weights `ResamplingWeights(inputCount:inputExtent:outputCount:kernel:)`
  /// makes, from the cache when they were made before.
  static func weights(
    inputCount: Int, inputExtent: Double? = nil, outputCount: Int, kernel: ResamplingKernel
  ) -> ResamplingWeights {
    let extent = min(inputExtent ?? Double(inputCount), Double(inputCount))
    let key = Key(inputCount: inputCount, extent: extent.bitPattern, outputCount: outputCount, kernel: kernel)
    if let hit = entries.withLock({ $0[key] }) { return hit }
    let made = ResamplingWeights(inputCount: inputCount, inputExtent: extent, outputCount: outputCount, kernel: kernel)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[key] = made
    }
    return made
  }
}
