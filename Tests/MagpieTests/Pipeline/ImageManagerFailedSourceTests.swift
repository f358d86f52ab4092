import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Which failed sources the manager remembers, and for how long.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerFailedSourceTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @Test func aFailedURLIsNotRequestedAgainWithoutRetryFailed() async throws {
    loader.script(url("404.png"), .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
    let manager = try manager()
    for _ in 0..<2 {
      await #expect {
        _ = try await manager.image(for: ImageRequest(url: url("404.png")))
      } throws: { error in
        (error as? MagpieError)?.statusCode == 404
      }
    }
    #expect(loader.startedURLs.count == 1)
    loader.script(url("404.png"), .respond(body: try png()))
    let recovered = try await manager.image(for: ImageRequest(url: url("404.png"), options: [.retryFailed]))
    #expect(recovered.cacheType == .none)
    #expect(loader.startedURLs.count == 2)
  }

  @Test func theOldestFailedURLsAreForgottenBeyondTheLimit() async throws {
    let manager = try manager()
    let count = ImageManager.failedSourceCount + 1
    for index in 0..<count {
      loader.script(url("gone-\(index).png"), .fail(MagpieError(.httpStatus, "HTTP 404", statusCode: 404)))
      _ = try? await manager.image(for: ImageRequest(url: url("gone-\(index).png")))
    }
    #expect(loader.startedURLs.count == count)
    // The newest is still remembered; the oldest was forgotten, so it is
    // asked for again.
    _ = try? await manager.image(for: ImageRequest(url: url("gone-\(count - 1).png")))
    #expect(loader.startedURLs.count == count)
    _ = try? await manager.image(for: ImageRequest(url: url("gone-0.png")))
    #expect(loader.startedURLs.count == count + 1)
  }

  @Test func transientFailuresAreNotRemembered() async throws {
    loader.script(
      url("503.png"), .fail(MagpieError(.httpStatus, "HTTP 503", statusCode: 503)), .respond(body: try png()))
    let manager = try manager()
    await #expect(throws: MagpieError.self) { _ = try await manager.image(for: ImageRequest(url: url("503.png"))) }
    _ = try await manager.image(for: ImageRequest(url: url("503.png")))
    #expect(loader.startedURLs.count == 2)
  }
}
