import Dispatch
import Foundation
import Testing

@testable import Magpie

#if canImport(MagpieServer)
  @testable import MagpieServer
#endif

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
      let (outcome, timedOut) = await Self.withBlockedGlobalPool {
        await LoadOutcome.load(nginx.url("/\(name)"), with: loader)
      }
      #expect(outcome.error == nil, "\(String(describing: outcome.error))")
      #expect(outcome.body == expected)
      #expect(timedOut == 0, "the load waited for the blocked jobs")
    }

    #if canImport(MagpieServer)
      /// `magpie serve` resolves each source's host before it fetches.
      /// Before the resolver had threads of its own, its `getaddrinfo` ran
      /// on the global pool: it waited behind the blocked jobs, and a slow
      /// DNS server's lookups in turn held the pool's threads.
      @Test("A host lookup finishes while GCD's global pool is blocked")
      func aHostLookupFinishesWhileTheGlobalPoolIsBlocked() async throws {
        let (result, timedOut) = await Self.withBlockedGlobalPool { await HostResolver.addresses(of: "localhost") }
        #expect(try !result.get().isEmpty, "localhost has an address")
        #expect(timedOut == 0, "the lookup waited for the blocked jobs")
      }
    #endif

    /// Runs `body` while more jobs than GCD's global pool has threads
    /// (about a dozen here) are blocked on it, each held until `body` is
    /// over; the backstop only bounds a failure, and the count of jobs it
    /// released says whether `body` waited for them. `body`'s own awaits
    /// run on a thread of their own, or they too would wait for the pool.
    static func withBlockedGlobalPool<T: Sendable>(
      _ body: @Sendable () async -> T
    ) async -> (T, timedOut: Int) {
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
      let executor = ThreadTaskExecutor()
      defer { executor.stop() }
      let result = await withTaskExecutorPreference(executor) {
        let result = await body()
        for _ in 0..<jobs { release.signal() }
        return result
      }
      await withCheckedContinuation { continuation in
        group.notify(queue: DispatchQueue(label: "busy-pool.done")) { continuation.resume() }
      }
      return (result, timedOut.withLock { $0 })
    }
  }
}
