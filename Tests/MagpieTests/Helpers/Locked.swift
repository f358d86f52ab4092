import Synchronization

/// A value behind a lock that closures can share (a local `Mutex` cannot be
/// captured by sending closures).
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }

  /// Runs `body` with the value locked.
  func withLock<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R {
    mutex.withLock { body(&$0) }
  }

  /// The current value.
  var value: Value { mutex.withLock { $0 } }
}
