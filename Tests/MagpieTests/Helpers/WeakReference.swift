/// A reference that does not keep its object alive: for tests that check
/// what is released.
final class WeakReference: @unchecked Sendable {
  /// The object, while something else keeps it.
  weak var object: AnyObject?

  init(_ object: AnyObject) { self.object = object }
}
