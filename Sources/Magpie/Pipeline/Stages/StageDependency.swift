/// What a stage's or a job's work waits in now, which follows the work's
/// priority: the work's dependency, set when it starts waiting and cleared
/// when it stops. Moving it is part of the same hold of the
/// ``EngineLock`` that changed the priority, so a task's new priority
/// reaches its job, the decode, the fetch and the download at once, and
/// only the line at the end (which has its own lock) is moved after.
enum StageDependency: Sendable {
  /// Another stage, through this work's subscription to it, and on through
  /// that stage's own dependency.
  case stage(any PriorityLink)
  /// A place in a line (a transfer slot, a decode or processing ticket),
  /// moved once the engine lock is released.
  case line(@Sendable (ImageRequest.Priority) -> Void)

  /// Moves the dependency to `priority`, with the engine lock held; a
  /// line's move goes into `deferred`, run after the lock is released.
  func move(to priority: ImageRequest.Priority, holdingEngineLock deferred: inout [@Sendable () -> Void]) {
    switch self {
    case .stage(let link): link.setPriority(priority, holdingEngineLock: &deferred)
    case .line(let move): deferred.append { move(priority) }
    }
  }
}
