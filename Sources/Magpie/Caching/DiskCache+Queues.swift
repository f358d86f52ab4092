import Dispatch

/// The I/O queues: ``perform(_:)`` for any work, ``performWrite(_:)`` for
/// the stores and removals of the cache's tier methods.
extension DiskCache {
  /// Runs `work` on the cache's I/O queue and returns its result, so the
  /// caller's thread never blocks on the disk.
  public func perform<T: Sendable>(
    _ work: @escaping @Sendable (DiskCache) throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    try await run(work, on: queue)
  }

  /// Runs a store or a removal like ``perform(_:)``: one at a time, except
  /// that flushing stores (``DiskCacheDurability/eachEntry``) overlap, so
  /// that their flushes share the file system's journal commits.
  func performWrite<T: Sendable>(
    _ work: @escaping @Sendable (DiskCache) throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    try await run(work, on: configuration.durability == .eachEntry ? queue : writeQueue)
  }

  private func run<T: Sendable>(
    _ work: @escaping @Sendable (DiskCache) throws(MagpieError) -> T, on queue: DispatchQueue
  ) async throws(MagpieError) -> T {
    let result: Result<T, MagpieError> = await withCheckedContinuation { continuation in
      queue.async {
        do throws(MagpieError) {
          continuation.resume(returning: .success(try work(self)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }
}
