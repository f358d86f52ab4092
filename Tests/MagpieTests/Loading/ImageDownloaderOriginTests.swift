import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The downloader over libcurl and over URLSession at a real origin: the
/// loader's thread (libcurl's, the session's delegate queue) takes each
/// next transfer from the downloader's line itself, and still in the
/// line's order.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageDownloaderOriginTests {
  let directory: TemporaryDirectory
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
  }

  /// The first transfer stalls at a second origin until the line is
  /// rearranged, then is cancelled: which transfer its freed slot starts
  /// cannot depend on how fast the origin answers. (With the first one at
  /// nginx, a slow test thread under the thread sanitizer once saw it end
  /// before the priority change, and the line ran in another order; with
  /// the 15 s idle timeout and the default retries, a later run saw the
  /// stalled one time out and go back in the line.)
  @Test(arguments: [ImageDownloader.ExecutionOrder.fifo, .lifo], [false, true])
  func theLoadersThreadStartsQueuedTransfersInTheLinesOrder(
    order: ImageDownloader.ExecutionOrder, urlSession: Bool
  ) async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let holder = try FaultOrigin()
    defer { holder.stop() }
    holder.route("/held", .stall)
    // The stalled transfer must outlast however long a loaded machine (a
    // sanitizer run, every suite at once) keeps this test from cancelling
    // it: no idle timeout that could end it first, and no retry that would
    // put it back in the line behind the others.
    let settings = DataLoaderConfiguration(timeout: .seconds(600), resourceTimeout: .seconds(600))
    let loader: any DataLoading =
      urlSession ? URLSessionDataLoader(configuration: settings) : CurlDataLoader(configuration: settings)
    #expect(loader is any QueueingDataLoader)
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: loader, maximumConcurrentDownloads: 1, executionOrder: order, retryPolicy: .never, rateLimit: nil))
    let done = AsyncCounter()
    let failures = Lock<[Int: MagpieError]>([:])
    let uris = (0..<6).map { "/cutout-01.png?\($0)" }
    let urls = [holder.url("/held")] + uris.dropFirst().map { origin.url($0) }
    var tokens: [ImageDownloader.Token] = []
    for (index, url) in urls.enumerated() {
      tokens.append(
        downloader.download(
          URLRequest(url: url),
          handlers: .init { result in
            if case .failure(let error) = result { failures.withLock { $0[index] = error } }
            done.increment()
          }))
    }
    #expect(await holder.waitForRequests("/held"))
    // The last waiting one jumps the line, another leaves it, and only
    // then does the running one free its slot.
    downloader.setPriority(.high, for: tokens[5])
    downloader.cancel(tokens[2])
    downloader.cancel(tokens[0])
    await done.wait(for: 6)
    #expect(failures.withLock { $0.mapValues(\.code) } == [0: .cancelled, 2: .cancelled])
    let expected = order == .fifo ? [5, 1, 3, 4] : [5, 4, 3, 1]
    #expect(try origin.loggedURIs() == expected.map { uris[$0] })
    #expect(downloader.runningCount == 0)
  }

  /// A download over libcurl holds nothing once its outcome is delivered:
  /// its stage (and the body in its outcome) goes with the last reference
  /// the caller drops. (The loader's callbacks and the stage once held each
  /// other, keeping every body of a run alive.)
  @Test func aFinishedDownloadKeepsNothing() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let downloader = ImageDownloader(configuration: .init(dataLoader: CurlDataLoader(), rateLimit: nil))
    weak var stage: PipelineStage<ImageDownloader.Response>?
    do {
      let subscription = downloader.subscribe(
        URLRequest(url: origin.url("/cutout-01.png")), priority: .normal, observer: nil)
      stage = subscription.stage
      let response = try await subscription.value()
      #expect(response.response.statusCode == 200)
    }
    // The libcurl thread may still be returning from the delivery.
    for _ in 0..<100_000 where stage != nil { await Task.yield() }
    #expect(stage == nil)
    #expect(downloader.transfers.count == 0)
  }
}
