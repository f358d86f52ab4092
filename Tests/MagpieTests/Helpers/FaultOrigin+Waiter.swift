extension FaultOrigin {
  /// A test waiting for requests or a close on one path.
  struct Waiter {
    var path: String
    var count: Int
    var kind: Kind
    var continuation: CheckedContinuation<Bool, Never>
    var id: Int
  }
}
