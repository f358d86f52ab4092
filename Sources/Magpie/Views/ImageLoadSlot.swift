import Foundation

/// One operation key's load in one target: which load is current, so a
/// completion of a replaced or cancelled load is recognised as stale and
/// never touches the target. A value: the binding asks it, tests drive it.
public struct ImageLoadSlot: Sendable {
  /// Names one load begun in this slot.
  public struct Token: Hashable, Sendable {
    let generation: UInt64
  }

  /// What the slot says to do with a finished load.
  public enum Outcome: Sendable, Equatable {
    /// It is the current load: show its result.
    case show
    /// It was replaced or cancelled: drop its result.
    case stale
  }

  private var generation: UInt64 = 0
  private var current: UInt64?
  /// The URL of the current (or last finished) load, `nil` for none.
  public private(set) var url: URL?

  /// An empty slot.
  public init() {}

  /// Whether a load is running.
  public var isLoading: Bool { current != nil }

  /// A new load of `url` replaces whatever ran: its token.
  public mutating func begin(url: URL?) -> Token {
    generation += 1
    current = generation
    self.url = url
    return Token(generation: generation)
  }

  /// Whether `token` names the load running now.
  public func isCurrent(_ token: Token) -> Bool { current == token.generation }

  /// The load named by `token` finished.
  public mutating func finish(_ token: Token) -> Outcome {
    guard current == token.generation else { return .stale }
    current = nil
    return .show
  }

  /// The current load is cancelled; whatever it delivers is stale. Returns
  /// whether one was running.
  @discardableResult
  public mutating func cancel() -> Bool {
    defer { current = nil }
    return current != nil
  }
}
