import Foundation

/// The outcome of each recently seen profile (``ColorTransformBuilder``),
/// so a page of photos from one phone builds one transform, not one each.
///
/// Keyed by the profile's bytes (a dictionary hashes them and compares them
/// on a hash match), bounded at ``capacity`` profiles, least recently used
/// out first, behind a ``Lock``. Transforms are built outside the lock: two
/// threads meeting a new profile at once may both build one, and the first
/// stored wins.
final class ColorTransformCache: Sendable {
  /// The cache decoding uses.
  static let shared = ColorTransformCache(capacity: 16)

  private struct Key: Hashable {
    let iccData: Data
    let input: ColorTransform.Input
  }

  private struct State {
    var outcomes: [Key: ColorTransformBuilder.Outcome] = [:]
    /// Least recently used first.
    var order: [Key] = []
    var transformsBuilt = 0
  }

  /// The most profiles kept.
  let capacity: Int
  private let state = Lock(State())

  /// An empty cache of at most `capacity` profiles.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// How many transforms this cache has built (sRGB, unusable and cached
  /// profiles build none); what tests watch.
  var transformsBuilt: Int { state.withLock { $0.transformsBuilt } }

  /// What converting `input` pixels in `profile` to sRGB takes.
  func outcome(for profile: ColorProfile, input: ColorTransform.Input) -> ColorTransformBuilder.Outcome {
    let key = Key(iccData: profile.iccData, input: input)
    if let known = state.withLock({ state -> ColorTransformBuilder.Outcome? in
      guard let known = state.outcomes[key] else { return nil }
      if let at = state.order.firstIndex(of: key) { state.order.remove(at: at) }
      state.order.append(key)
      return known
    }) {
      return known
    }
    let built = ColorTransformBuilder.outcome(for: profile.iccData, input: input)
    return state.withLock { state in
      if let known = state.outcomes[key] { return known }
      if case .transform = built { state.transformsBuilt += 1 }
      state.outcomes[key] = built
      state.order.append(key)
      if state.order.count > capacity { state.outcomes[state.order.removeFirst()] = nil }
      return built
    }
  }
}
