import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Identical requests at once share one download and one decode.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerCoalescingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func concurrentRequestsShareOneDownloadAndOneDecode() async throws {
    loader.script(url("shared.png"), .respond(body: try png()))
    loader.suspend()
    let manager = try manager()
    let results = Locked<[ImageResult]>([])
    let shared = url("shared.png")
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          if let result = try? await manager.image(for: ImageRequest(url: shared)) {
            results.withLock { $0.append(result) }
          }
        }
      }
      await loader.waitForStarts(1)
      loader.resume()
    }
    #expect(results.withLock { $0.count } == 100)
    #expect(loader.startedURLs.count == 1)
    #expect(coder.decodes == 1)
  }
}
