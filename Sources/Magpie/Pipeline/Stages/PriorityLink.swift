/// A subscription whose priority can be set in a hold of the
/// ``EngineLock`` already taken (see ``StageDependency/stage(_:)``).
protocol PriorityLink: Sendable {
  /// Asks for the work at `priority` on this subscriber's behalf, with the
  /// engine lock held; line moves go into `deferred`.
  func setPriority(_ priority: ImageRequest.Priority, holdingEngineLock deferred: inout [@Sendable () -> Void])
}
