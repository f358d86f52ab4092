extension FaultOrigin {
  /// What a ``Waiter`` waits for.
  enum Kind {
    case request
    case close
  }
}
