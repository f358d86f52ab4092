/// A part of the engine's state, kept by the object it belongs to (a stage,
/// a job, a table) and read and written only under the one
/// ``EngineLock``: several objects' state can be changed in one hold, as
/// when a table finds a stage and joins it, or an event passes from the
/// download through the fetch and the decode to the job.
///
/// `@unchecked Sendable` is sound because `value` is touched only inside
/// ``withLock(_:)`` (which takes the lock) or ``withHeldLock(_:)`` (which
/// requires it held, checked in debug builds).
final class EngineGuarded<Value>: @unchecked Sendable {
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Takes the engine lock and runs `body` on the value.
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    EngineLock.withLock { body(&value) }
  }

  /// Runs `body` on the value; the caller already holds the engine lock.
  func withHeldLock<Result>(_ body: (inout Value) -> Result) -> Result {
    EngineLock.assertHeld()
    return body(&value)
  }
}
