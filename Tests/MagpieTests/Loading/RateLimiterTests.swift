import Foundation
import Testing

@testable import Magpie

/// The start-rate limiter (issue 35, item 2): the token bucket as a value,
/// the gate in front of the transfer line on a virtual clock, and a storm
/// of loads started and cancelled through the whole pipeline.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct RateLimiterTests {
  @Test func theBucketGivesItsBurstAtOnceThenItsRate() {
    var bucket = TokenBucket(.default, now: .zero)
    for _ in 0..<25 { #expect(bucket.take(at: .zero) == nil) }
    // The 26th waits for one token at 80 a second: 12.5 ms.
    #expect(bucket.take(at: .zero) == .milliseconds(12.5))
    #expect(bucket.take(at: .milliseconds(12.5)) == nil)
    #expect(bucket.take(at: .milliseconds(12.5)) != nil)
    // A quiet spell refills it to the burst, no further.
    var taken = 0
    while bucket.take(at: .seconds(10)) == nil { taken += 1 }
    #expect(taken == 25)
  }

  @Test func aStormOfStartsAndCancelsIsHeldToTheRate() {
    let clock = VirtualRateClock()
    let gate = StartGate(.default, clock: clock.rateClock)
    let queue = TransferQueue(maximumRunning: 6, order: .fifo, gate: gate)
    let started = Lock(0)
    // 2,000 transfers over one virtual second, each cancelled as soon as it
    // is queued: 20 rounds of 100, 50 ms apart.
    for _ in 0..<20 {
      for _ in 0..<100 {
        let id = queue.enqueue(priority: .normal) { _ in started.withLock { $0 += 1 } }
        queue.remove(id)
      }
      clock.advance(by: .milliseconds(50))
    }
    let count = started.withLock { $0 }
    // The burst, then 80 a second for the 0.95 s between the first round
    // and the last: 101 starts; never more than burst + rate x 1 s.
    #expect(count <= 25 + 80)
    #expect(count >= 25 + 76)
    #expect(gate.admitted == count)
    #expect(queue.runningCount == 0 && queue.waitingCount == 0 && gate.heldCount == 0)
  }

  @Test func heldTransfersStartAsTokensComeAndKeepTheirSlots() {
    let clock = VirtualRateClock()
    let gate = StartGate(RateLimit(rate: 10, burst: 2), clock: clock.rateClock)
    let queue = TransferQueue(maximumRunning: 3, order: .fifo, gate: gate)
    let started = Lock<[Int]>([])
    let ids = (0..<5).map { index in queue.enqueue(priority: .normal) { _ in started.withLock { $0.append(index) } } }
    // Two tokens: two start, the third slot's transfer is held, two wait.
    #expect(started.withLock { $0 } == [0, 1])
    #expect(gate.heldCount == 1 && queue.waitingCount == 2)
    #expect(clock.pendingTimers == 1)
    clock.advance(by: .milliseconds(100))
    #expect(started.withLock { $0 } == [0, 1, 2])
    // A freed slot's next transfer waits for its token too.
    queue.remove(ids[0])
    #expect(started.withLock { $0 } == [0, 1, 2])
    // Cancelled while held: it leaves without a token and frees its slot.
    #expect(queue.remove(ids[3]))
    clock.advance(by: .milliseconds(100))
    #expect(started.withLock { $0 } == [0, 1, 2, 4])
    #expect(gate.admitted == 4)
  }

  @Test func aScrollThatStartsAndCancelsTwoThousandLoadsSendsOnlyTheBurst() async throws {
    let loader = MockDataLoader()
    let clock = VirtualRateClock()
    var downloads = ImageDownloader.Configuration(dataLoader: loader, retryPolicy: .never)
    downloads.rateClock = clock.rateClock
    let downloader = ImageDownloader(configuration: downloads)
    let cache = ImageCache(memoryCache: .frozen(), tiers: [], trimsOnMemoryPressure: false)
    let manager = ImageManager(configuration: .init(cache: cache, downloader: downloader))
    let urls = (0..<2000).map { URL(string: "https://images.example.com/\($0).png")! }
    let body = try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 2, height: 2, straightRGBA: [UInt8](repeating: 255, count: 16))), as: .png)
    for url in urls { loader.script(url, .respond(body: body)) }
    // Time stands still: however the starts and cancels interleave, only
    // the burst of 25 can reach the loader.
    let tasks = urls.map { url in
      let task = manager.imageTask(with: ImageRequest(url: url))
      task.cancel()
      return task
    }
    for task in tasks { _ = try? await task.response }
    #expect(downloader.queue.gate?.admitted ?? .max <= 25)
    #expect(loader.startedURLs.count <= 25)
    // A load that is not cancelled gets a token as time moves on, behind
    // whatever of the storm is still winding down; virtual time moves in
    // 100 ms steps until it is done, and the loader never sees more than
    // the burst plus the rate for the time that passed.
    let last = URL(string: "https://images.example.com/last.png")!
    loader.script(last, .respond(body: body))
    let kept = manager.imageTask(with: ImageRequest(url: last))
    let done = Lock(false)
    let result = Task {
      defer { done.withLock { $0 = true } }
      return try await kept.response
    }
    var steps = 0
    while !done.withLock({ $0 }) {
      clock.advance(by: .milliseconds(100))
      steps += 1
      await Task.yield()
    }
    #expect(try await result.value.image.pixelSize == PixelSize(width: 2, height: 2))
    #expect(loader.startedURLs.count <= 25 + 8 * steps)
    #expect(loader.startedURLs.contains(last.absoluteString))
  }
}
