/// Which decoded frames a frame buffer keeps and which it decodes next, as
/// a value: FLAnimatedImage's frame cache sizing, tested synchronously
/// (``AnimationFrameBuffer`` keeps one behind its lock).
///
/// The buffer holds every frame when the whole animation fits its memory
/// budget; otherwise a window of as many frames as fit, starting at the
/// frame last asked for and running forward (wrapping, as playback does);
/// one frame under memory pressure. Frames are decoded one at a time, in
/// playback order, because frame sources decode forward.
public struct FrameWindow: Sendable, Equatable {
  /// How many frames the animation has.
  public let frameCount: Int
  /// Bytes of one decoded frame.
  public let frameBytes: Int
  /// Frames the budget holds (at least 1, at most ``frameCount``).
  public let budgetCapacity: Int
  /// Frames held now: the budget's, or 1 under memory pressure.
  public private(set) var capacity: Int
  /// The frame the window starts at (the last asked for).
  public private(set) var anchor = 0
  /// Frames decoded and held.
  public private(set) var cached: Set<Int> = []
  /// The frame being decoded, if any.
  public private(set) var decoding: Int?

  /// A window over `frameCount` frames of `frameBytes` each within
  /// `budgetBytes`.
  public init(frameCount: Int, frameBytes: Int, budgetBytes: Int) {
    precondition(frameCount > 0 && frameBytes > 0, "an animation has frames with pixels")
    self.frameCount = frameCount
    self.frameBytes = frameBytes
    budgetCapacity = min(frameCount, max(1, budgetBytes / frameBytes))
    capacity = budgetCapacity
  }

  /// Whether every frame fits (then none is ever dropped).
  public var holdsEveryFrame: Bool { capacity == frameCount }

  /// Bytes of the frames held.
  public var cachedBytes: Int { cached.count * frameBytes }

  /// The frames the window wants, in the order to decode them.
  public var wanted: [Int] { (0..<capacity).map { (anchor + $0) % frameCount } }

  /// Frame `index` is asked for: the window moves to start there. Returns
  /// the frames to drop (outside the window now).
  public mutating func request(_ index: Int) -> [Int] {
    anchor = (index % frameCount + frameCount) % frameCount
    return evictOutside()
  }

  /// The next frame to decode, marked as decoding; `nil` when one is
  /// being decoded already or the window is full.
  public mutating func nextToDecode() -> Int? {
    guard decoding == nil, let next = wanted.first(where: { !cached.contains($0) }) else { return nil }
    decoding = next
    return next
  }

  /// The decode of `index` finished; returns whether to keep the frame
  /// (false when the window moved away from it meanwhile).
  public mutating func finishedDecoding(_ index: Int) -> Bool {
    if decoding == index { decoding = nil }
    guard wanted.contains(index) else { return false }
    cached.insert(index)
    return true
  }

  /// The decode of `index` failed or was abandoned.
  public mutating func abandonedDecoding(_ index: Int) {
    if decoding == index { decoding = nil }
  }

  /// Memory is short: hold only the frame asked for last. Returns the
  /// frames to drop.
  public mutating func enterMemoryPressure() -> [Int] {
    capacity = 1
    return evictOutside()
  }

  /// Memory is back: the budget's window refills as frames are decoded.
  public mutating func leaveMemoryPressure() {
    capacity = budgetCapacity
  }

  private mutating func evictOutside() -> [Int] {
    let keep = Set(wanted)
    let dropped = cached.subtracting(keep)
    cached = cached.intersection(keep)
    return dropped.sorted()
  }
}
