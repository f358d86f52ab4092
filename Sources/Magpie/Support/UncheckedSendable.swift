/// Carries a value across a concurrency boundary the compiler cannot see is
/// safe. Use only where the comment at the use site says why it is: today,
/// for row-disjoint pixel work handed to `DispatchQueue.concurrentPerform`,
/// and for a dispatch timer (thread-safe, but not marked Sendable).
struct UncheckedSendable<Value>: @unchecked Sendable {
  /// The carried value.
  let value: Value

  /// Wraps `value`.
  init(_ value: Value) { self.value = value }
}
