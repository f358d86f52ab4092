/// Which decoded frames a frame buffer keeps and which it decodes next, as
/// a value: FLAnimatedImage's frame cache sizing, tested synchronously
/// (``AnimationFrameBuffer`` keeps one behind its lock).
///
/// The buffer holds every frame when the whole animation fits its memory
/// budget; otherwise a window of as many frames as fit, starting at the
/// frame last asked for and running along the playback's ``heading``
/// (wrapping or turning around, as playback does); one frame under memory
/// pressure. Frames are decoded one at a time.
///
/// Frame sources decode forward, from the nearest keyframe at or before a
/// frame or from where they stand. So the window decodes each run of
/// missing frames in ascending order, from the run's first frame: playing
/// in reverse, one keyframe start then one draw per frame fills the frames
/// the next backward steps show. A run that does not go on from the frame
/// decoded last costs a start from a keyframe, so it waits until
/// ``refillBatch`` frames are missing (or the frame asked for is): the
/// keyframe starts are bounded by the window, not by the frame count.
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
  /// Which way playback goes from ``anchor``.
  public private(set) var heading = PlaybackHeading.forward
  /// The frame decoded last (kept or not): a decoder stands just after it.
  public private(set) var lastDecoded: Int?
  /// Cleared and not asked for since: nothing is decoded.
  public private(set) var isSuspended = false
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

  /// The frames the window wants, in the order playback reaches them.
  public var wanted: [Int] { heading.upcomingFrames(from: anchor, count: capacity, frameCount: frameCount) }

  /// Missing frames that make a run worth a start from a keyframe: half
  /// the window (at least 1).
  public var refillBatch: Int { max(1, (capacity + 1) / 2) }

  /// Frame `index` is asked for, playback going on along `heading`: the
  /// window moves to start there. Returns the frames to drop (outside the
  /// window now).
  public mutating func request(_ index: Int, heading: PlaybackHeading = .forward) -> [Int] {
    anchor = (index % frameCount + frameCount) % frameCount
    self.heading = heading
    isSuspended = false
    return evictOutside()
  }

  /// The next frame to decode, marked as decoding; `nil` when one is
  /// being decoded already, the window is full, or the missing frames are
  /// too few yet to start a run from a keyframe for.
  public mutating func nextToDecode() -> Int? {
    guard decoding == nil, !isSuspended else { return nil }
    let wanted = self.wanted
    guard let first = wanted.first(where: { !cached.contains($0) }) else { return nil }
    // Back to the start of the run of missing frames it is in: decoding
    // that run upward draws each frame once.
    let wantedSet = Set(wanted)
    var start = first
    while start > 0 && wantedSet.contains(start - 1) && !cached.contains(start - 1) { start -= 1 }
    // Frame 0 and the frame after the last decoded one cost one draw.
    let isCheap = start == 0 || lastDecoded.map { $0 + 1 == start } ?? false
    guard isCheap || first == anchor || wanted.count - cached.count >= refillBatch else { return nil }
    decoding = start
    return start
  }

  /// The decode of `index` finished; returns whether to keep the frame
  /// (false when the window moved away from it meanwhile, or was cleared).
  public mutating func finishedDecoding(_ index: Int) -> Bool {
    if decoding == index { decoding = nil }
    lastDecoded = index
    guard !isSuspended, wanted.contains(index) else { return false }
    cached.insert(index)
    return true
  }

  /// The decode of `index` failed or was abandoned.
  public mutating func abandonedDecoding(_ index: Int) {
    if decoding == index { decoding = nil }
    lastDecoded = nil
  }

  /// Drops every frame and decodes nothing until a frame is asked for
  /// again (a player stopped with its buffer cleared). Returns the frames
  /// to drop.
  public mutating func clear() -> [Int] {
    defer { cached = [] }
    isSuspended = true
    return cached.sorted()
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
