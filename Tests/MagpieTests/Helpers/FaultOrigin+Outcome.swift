extension FaultOrigin {
  /// How answering a request left its connection.
  enum Outcome {
    case keepAlive
    case clientClosed
    case closedByOrigin
  }
}
