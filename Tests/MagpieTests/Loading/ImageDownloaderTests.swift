import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageDownloaderTests {
  let loader = MockDataLoader()

  private func downloader(
    maximum: Int = 6, order: ImageDownloader.ExecutionOrder = .fifo, retry: RetryPolicy = RetryPolicy(),
    sleeps: SleepLog = SleepLog()
  ) -> ImageDownloader {
    ImageDownloader(
      configuration: .init(
        dataLoader: loader, maximumConcurrentDownloads: maximum, executionOrder: order, retryPolicy: retry,
        rateLimit: nil, sleep: { duration in sleeps.record(duration) }))
  }

  /// The waits a downloader asked for, instead of waiting: a virtual clock.
  final class SleepLog: Sendable {
    private let waits = Lock<[Duration]>([])
    func record(_ duration: Duration) { waits.withLock { $0.append(duration) } }
    var recorded: [Duration] { waits.withLock { $0 } }
  }

  private func url(_ name: String) -> URL { URL(string: "https://images.example.com/\(name)")! }

  /// Collects completions and lets a test await a number of them.
  final class Completions: Sendable {
    private let received = Lock<[Int: Result<ImageDownloader.Response, MagpieError>]>([:])
    private let counter = AsyncCounter()

    func handler(_ index: Int) -> @Sendable (Result<ImageDownloader.Response, MagpieError>) -> Void {
      { result in
        // Counts completed requests, as before: a second completion of
        // one index replaces the first.
        if self.received.withLock({ $0.updateValue(result, forKey: index) == nil }) { self.counter.increment() }
      }
    }

    func wait(for count: Int) async {
      await counter.wait(for: count)
    }

    var results: [Int: Result<ImageDownloader.Response, MagpieError>] { received.withLock { $0 } }
  }

  @Test func identicalRequestsShareOneTransfer() async throws {
    let body = Data((0..<50_000).map { UInt8($0 % 256) })
    loader.script(url("a.jpg"), .respond(body: body, chunkSize: 10_000))
    loader.suspend()
    let downloader = downloader()
    let completions = Completions()
    let progress = Lock<[Int: [Int64]]>([:])
    for index in 0..<100 {
      downloader.download(
        URLRequest(url: url("a.jpg")),
        handlers: .init(
          progress: { received, _ in progress.withLock { $0[index, default: []].append(received) } },
          completion: completions.handler(index)))
    }
    loader.resume()
    await completions.wait(for: 100)
    #expect(loader.startedURLs.count == 1)
    for index in 0..<100 {
      let response = try #require(try? completions.results[index]?.get())
      #expect(response.data == body)
      // Every subscriber got its own progress, in order, to the end.
      let seen = progress.withLock { $0[index] ?? [] }
      #expect(seen == seen.sorted() && seen.last == 50_000)
    }
  }

  @Test func cancellingSomeSubscribersLeavesTheRestRunning() async throws {
    loader.script(url("b.jpg"), .respond(body: Data(count: 1000)))
    loader.suspend()
    let downloader = downloader()
    let completions = Completions()
    var tokens: [ImageDownloader.Token] = []
    for index in 0..<100 {
      tokens.append(
        downloader.download(URLRequest(url: url("b.jpg")), handlers: .init(completion: completions.handler(index))))
    }
    await loader.waitForStarts(1)
    for token in tokens.dropLast() { downloader.cancel(token) }
    await completions.wait(for: 99)
    loader.resume()
    await completions.wait(for: 100)
    for index in 0..<99 {
      guard case .failure(let error)? = completions.results[index] else {
        Issue.record("subscriber \(index) was not cancelled")
        continue
      }
      #expect(error.code == .cancelled)
    }
    #expect((try? completions.results[99]?.get())?.data.count == 1000)
    #expect(loader.cancelledURLs.isEmpty)
  }

  @Test func cancellingEverySubscriberStopsTheTransfer() async throws {
    loader.suspend()
    let downloader = downloader()
    let completions = Completions()
    let tokens = (0..<5).map { index in
      downloader.download(URLRequest(url: url("c.jpg")), handlers: .init(completion: completions.handler(index)))
    }
    await loader.waitForStarts(1)
    for token in tokens { downloader.cancel(token) }
    await completions.wait(for: 5)
    #expect(loader.cancelledURLs == [url("c.jpg").absoluteString])
    #expect(downloader.runningCount == 0)
  }

  @Test func aWaitingDownloadsPriorityChangesTheStartOrder() async throws {
    loader.suspend()
    let downloader = downloader(maximum: 1)
    let completions = Completions()
    var tokens: [String: ImageDownloader.Token] = [:]
    for (index, name) in ["first", "b", "c", "d"].enumerated() {
      tokens[name] = downloader.download(
        URLRequest(url: url(name)), handlers: .init(completion: completions.handler(index)))
    }
    await loader.waitForStarts(1)
    downloader.setPriority(.high, for: tokens["d"]!)
    downloader.setPriority(.veryLow, for: tokens["b"]!)
    loader.resume()
    await completions.wait(for: 4)
    #expect(loader.startedURLs.map { URL(string: $0)!.lastPathComponent } == ["first", "d", "c", "b"])
  }

  @Test(arguments: [ImageDownloader.ExecutionOrder.fifo, .lifo])
  func executionOrderHolds(order: ImageDownloader.ExecutionOrder) async throws {
    loader.suspend()
    let downloader = downloader(maximum: 1, order: order)
    let completions = Completions()
    for (index, name) in ["0", "1", "2", "3", "4"].enumerated() {
      downloader.download(URLRequest(url: url(name)), handlers: .init(completion: completions.handler(index)))
    }
    loader.resume()
    await completions.wait(for: 5)
    let started = loader.startedURLs.map { URL(string: $0)!.lastPathComponent }
    #expect(started == (order == .fifo ? ["0", "1", "2", "3", "4"] : ["0", "4", "3", "2", "1"]))
  }

  @Test func transientFailuresAreRetriedWithBackoff() async throws {
    let sleeps = SleepLog()
    let downloader = downloader(retry: RetryPolicy(maximumAttempts: 3), sleeps: sleeps)
    // A real loader turns a 503 answer into this error.
    loader.script(
      url("flaky.jpg"),
      .fail(MagpieError(.httpStatus, "503", statusCode: 503)),
      .fail(MagpieError(.network, "connection reset")),
      .respond(body: Data([1, 2, 3])))
    let response = try await downloader.data(for: URLRequest(url: url("flaky.jpg")))
    #expect(response.data == Data([1, 2, 3]))
    #expect(response.metrics.attempts == 3)
    #expect(sleeps.recorded == [.milliseconds(500), .seconds(1)])
  }

  @Test func retryAfterIsHonouredAndCapped() async throws {
    let sleeps = SleepLog()
    loader.script(
      url("busy.jpg"),
      .fail(MagpieError(.httpStatus, "429", statusCode: 429, retryAfter: .seconds(7))),
      .fail(MagpieError(.httpStatus, "503", statusCode: 503, retryAfter: .seconds(3600))),
      .respond(body: Data([9])))
    let downloader = downloader(retry: RetryPolicy(maximumAttempts: 3, maximumDelay: .seconds(60)), sleeps: sleeps)
    _ = try await downloader.data(for: URLRequest(url: url("busy.jpg")))
    #expect(sleeps.recorded == [.seconds(7), .seconds(60)])
  }

  @Test func clientErrorsAreNeverRetried() async throws {
    let sleeps = SleepLog()
    loader.script(url("missing.jpg"), .fail(MagpieError(.httpStatus, "404", statusCode: 404)))
    let downloader = downloader(sleeps: sleeps)
    await #expect {
      _ = try await downloader.data(for: URLRequest(url: url("missing.jpg")))
    } throws: { error in
      (error as? MagpieError)?.statusCode == 404
    }
    #expect(loader.startedURLs.count == 1)
    #expect(sleeps.recorded.isEmpty)
  }

  @Test func givingUpReportsTheLastError() async throws {
    loader.script(url("down.jpg"), .fail(MagpieError(.timedOut, "no answer in 15 s")))
    let downloader = downloader(retry: RetryPolicy(maximumAttempts: 2), sleeps: SleepLog())
    await #expect {
      _ = try await downloader.data(for: URLRequest(url: url("down.jpg")))
    } throws: { error in
      (error as? MagpieError)?.code == .timedOut
    }
    #expect(loader.startedURLs.count == 2)
  }

  @Test func cancellingTheAwaitingTaskCancelsItsSubscription() async throws {
    loader.suspend()
    let downloader = downloader()
    let task = Task { try await downloader.data(for: URLRequest(url: url("slow.jpg"))) }
    await loader.waitForStarts(1)
    task.cancel()
    let result = await task.result
    guard case .failure(let error) = result else {
      Issue.record("expected a cancellation")
      return
    }
    #expect((error as? MagpieError)?.code == .cancelled)
    #expect(loader.cancelledURLs == [url("slow.jpg").absoluteString])
  }

  @Test func differentHeadersAreDifferentDownloads() {
    var a = URLRequest(url: url("x.jpg"))
    var b = URLRequest(url: url("x.jpg"))
    a.setValue("Bearer one", forHTTPHeaderField: "Authorization")
    b.setValue("Bearer two", forHTTPHeaderField: "Authorization")
    #expect(TransferKey(a) != TransferKey(b))
    #expect(
      TransferKey(URLRequest(url: url("x.jpg"))) == TransferKey(URLRequest(url: url("x.jpg"))))
  }
}
