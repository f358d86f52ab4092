import Dispatch
import Foundation
import Testing

@testable import Magpie

extension DataLoaderTests {
  /// Loads while GCD's global pool is full of blocked jobs, as it is when
  /// other work in the process blocks (a child process read to its end, a
  /// `getaddrinfo`, a semaphore). Before the URLSession loader's delegate
  /// got a serial queue of its own, its `OperationQueue` ran there, and
  /// every URLSession load in the process stalled until the jobs ended.
  @Suite("A busy global pool", .serialized)
  struct BusyPool {
    // Not the whole-body helper: its unstructured task runs on the pool.
    @Test("A load finishes while GCD's global pool is blocked", arguments: [LoaderKind.urlSession, .curl])
    func aLoadFinishesWhileTheGlobalPoolIsBlocked(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Nginx.samples)
      defer { nginx.stop() }
      let name = try #require(try Nginx.sampleNames().first)
      let expected = try Data(contentsOf: Nginx.samples.appendingPathComponent(name))
      let loader = kind.make(quickConfiguration())
      // More jobs than the pool has threads (about a dozen here), each
      // held until the load is over; the backstop only bounds a failure.
      let jobs = 64
      let release = DispatchSemaphore(value: 0)
      let timedOut = Lock(0)
      let group = DispatchGroup()
      let backstop = DispatchTimeInterval.seconds(20 * Sanitizer.slowdown)
      for _ in 0..<jobs {
        DispatchQueue.global().async(group: group) {
          if release.wait(timeout: .now() + backstop) == .timedOut { timedOut.withLock { $0 += 1 } }
        }
      }
      // The test's own awaits, up to the release, run on a thread of
      // their own, or they too would wait for the pool.
      let executor = ThreadTaskExecutor()
      defer { executor.stop() }
      let outcome = await withTaskExecutorPreference(executor) {
        let outcome = await LoadOutcome.load(nginx.url("/\(name)"), with: loader)
        for _ in 0..<jobs { release.signal() }
        return outcome
      }
      await withCheckedContinuation { continuation in
        group.notify(queue: DispatchQueue(label: "busy-pool.done")) { continuation.resume() }
      }
      #expect(outcome.error == nil, "\(String(describing: outcome.error))")
      #expect(outcome.body == expected)
      #expect(timedOut.withLock { $0 } == 0, "the load waited for the blocked jobs")
    }
  }
}
