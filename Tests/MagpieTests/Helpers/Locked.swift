import Magpie

/// A value behind a ``Lock`` that closures can share, readable as `value`.
final class Locked<Value: Sendable>: Sendable {
  private let lock: Lock<Value>

  init(_ value: Value) { lock = Lock(value) }

  /// Runs `body` with the value locked.
  func withLock<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R {
    lock.withLock { body(&$0) }
  }

  /// The current value.
  var value: Value { lock.withLock { $0 } }
}
