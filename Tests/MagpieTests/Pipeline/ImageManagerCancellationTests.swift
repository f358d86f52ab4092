import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Cancelling tasks that share a download: the others go on, and the
/// transfer stops with the last.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerCancellationTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func cancellingAllButOneTaskKeepsTheLastAndCancellingAllStopsTheDownload() async throws {
    loader.script(url("c.png"), .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let outcomes = Locked<[Int: Result<ImageResult, MagpieError>]>([:])
    let done = AsyncCounter()
    var tasks: [ImageTask] = []
    for index in 0..<100 {
      tasks.append(
        manager.loadImage(with: ImageRequest(url: url("c.png")), callbackQueue: .immediate) { result in
          outcomes.withLock { $0[index] = result }
          done.increment()
        })
    }
    await loader.waitForStarts(1)
    for task in tasks.dropLast() { task.cancel() }
    await done.wait(for: 99)
    loader.resume()
    await done.wait(for: 100)
    let all = outcomes.withLock { $0 }
    #expect(
      (0..<99).allSatisfy { index in
        if case .failure(let error)? = all[index] { return error.code == .cancelled }
        return false
      })
    #expect((try? all[99]?.get())?.image.pixelSize == PixelSize(width: 40, height: 30))

    // Now cancel every task of a second image: the transfer stops.
    loader.suspend()
    let second = (0..<10).map { _ in
      manager.loadImage(with: ImageRequest(url: url("d.png")), callbackQueue: .immediate) { _ in done.increment() }
    }
    await loader.waitForStarts(2)
    for task in second { task.cancel() }
    await done.wait(for: 110)
    #expect(loader.cancelledURLs == [url("d.png").absoluteString])
  }
}
