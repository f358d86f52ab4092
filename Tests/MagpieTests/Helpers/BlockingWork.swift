import Foundation

/// Runs blocking work (a child process read to its end, a socket exchange)
/// on a thread of its own. Blocking a Swift task's thread, or a GCD
/// global-queue job, instead takes a thread from the pool that every task,
/// timer and `OperationQueue` in the process shares: a dozen such waits at
/// once stall unrelated tests until they end.
enum BlockingWork {
  /// `work`'s result, run on a thread of its own.
  static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try work() }) }.start()
    }
  }
}
