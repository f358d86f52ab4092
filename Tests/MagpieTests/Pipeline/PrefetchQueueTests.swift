import Foundation
import Testing

@testable import Magpie

/// The prefetcher's bookkeeping as a value, event by event.
@Suite struct PrefetchQueueTests {
  private func request(_ index: Int) -> ImageRequest {
    ImageRequest(url: URL(string: "https://images.example.com/\(index).png")!)
  }

  private func key(_ index: Int) -> ImageCacheKey {
    request(index).cacheKey(defaultFilter: .absoluteString)
  }

  private func queue(_ count: Int, limit: Int) -> PrefetchQueue {
    var queue = PrefetchQueue(limit: limit)
    queue.add((0..<count).map(request), keys: (0..<count).map(key))
    return queue
  }

  @Test func startsUpToItsLimitInOrder() {
    var queue = queue(3, limit: 2)
    #expect(queue.next()?.key == key(0))
    #expect(queue.next()?.key == key(1))
    #expect(queue.next() == nil)
    #expect(queue.complete(0, .finished)?.finished == 1)
    #expect(queue.next()?.key == key(2))
    #expect(!queue.isDone)
    _ = queue.complete(1, .skipped)
    _ = queue.complete(2, .failed)
    #expect(queue.isDone)
    #expect(queue.progress == ImagePrefetcher.Progress(total: 3, finished: 1, skipped: 1, failed: 1))
    #expect(queue.report.finished.map(\.url) == [request(0).url])
    #expect(queue.report.skipped.map(\.url) == [request(1).url])
    #expect(queue.report.failed.map(\.url) == [request(2).url])
  }

  @Test func pausedStartsNothingAndRunningLoadsStillComplete() {
    var queue = queue(3, limit: 2)
    _ = queue.next()
    queue.setPaused(true)
    #expect(queue.next() == nil)
    #expect(queue.complete(0, .finished) != nil)
    #expect(queue.next() == nil)
    queue.setPaused(false)
    #expect(queue.next()?.key == key(1))
  }

  @Test func aStopCountsOnceAndALateCompletionIsIgnored() {
    var queue = queue(4, limit: 2)
    let first = queue.next()!
    _ = queue.next()
    // Stopped before its task was attached: nothing to cancel yet.
    #expect(queue.stop(keys: [key(0), key(3)]).isEmpty)
    #expect(queue.progress.failed == 2)
    #expect(queue.complete(first.id, .failed) == nil)
    #expect(queue.next()?.key == key(2))
    #expect(queue.next() == nil)
    #expect(queue.progress.failed == 2)
    #expect(queue.stop(keys: nil).isEmpty)
    #expect(queue.isDone)
    #expect(queue.progress == ImagePrefetcher.Progress(total: 4, finished: 0, skipped: 0, failed: 4))
  }

  @Test func theOutcomeListsAreBounded() {
    let count = PrefetchQueue.reportCapacity + 10
    var queue = PrefetchQueue(limit: 1)
    queue.add(Array(repeating: request(0), count: count), keys: Array(repeating: key(0), count: count))
    for _ in 0..<count {
      let entry = queue.next()!
      _ = queue.complete(entry.id, .finished)
    }
    #expect(queue.progress.finished == count)
    #expect(queue.report.finished.count <= PrefetchQueue.reportCapacity)
    #expect(queue.isDone)
  }
}
