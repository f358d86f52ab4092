/// What drives playback: something that ticks once per displayed frame,
/// as CADisplayLink does on Apple's platforms. A UI binding supplies one
/// from its toolkit's frame clock (GTK's `GdkFrameClock`); tests supply a
/// ``ManualFrameClock``; ``TimerFrameClock`` ticks on a real clock.
///
/// A clock calls its handler with the time of each tick, on a monotonic
/// timeline of its own, from one thread at a time.
public protocol FrameClock: AnyObject, Sendable {
  /// Starts calling `handler` at each tick, replacing any handler before.
  func start(_ handler: @escaping @Sendable (_ now: Duration) -> Void)
  /// Stops the ticks; `start` resumes them.
  func stop()
}
