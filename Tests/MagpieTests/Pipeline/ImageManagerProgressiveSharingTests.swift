import Foundation
import Testing

@testable import Magpie

/// A view's load (progressive by default) and a prefetch of the same URL
/// at the same time share one download.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerProgressiveSharingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func aProgressiveLoadAndAPlainOneOfOneURLShareTheDownload() async throws {
    let body = try png()
    loader.script(url("shared.png"), .respond(body: body))
    loader.suspend()
    let manager = try manager(maximumDownloads: 4)
    let done = AsyncCounter()
    var progressive = ImageRequest(url: url("shared.png"))
    progressive.options.insert(.progressiveLoad)
    var sized = ImageRequest(url: url("shared.png"))
    sized.processors = [ImageProcessors.Resizing(size: PixelSize(width: 10, height: 10))]
    _ = manager.loadImage(with: progressive, callbackQueue: .immediate) { result in
      if case .success = result { done.increment() }
    }
    await loader.waitForStarts(1)
    _ = manager.loadImage(with: ImageRequest(url: url("shared.png")), callbackQueue: .immediate) { result in
      if case .success = result { done.increment() }
    }
    _ = manager.loadImage(with: sized, callbackQueue: .immediate) { result in
      if case .success = result { done.increment() }
    }
    await events.waitUntil(subscribers: 2, in: .download)
    loader.resume()
    await done.wait(for: 3)
    #expect(loader.startedURLs.count == 1, "\(loader.startedURLs)")
  }
}
