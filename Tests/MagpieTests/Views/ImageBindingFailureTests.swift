import Foundation
import Testing

@testable import Magpie

/// Failure images and retries (Kingfisher's `onFailureImage`, Nuke's
/// `failure`): the exact sequence of what the binding does to a fake view.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingFailureTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let placeholder = TaggedImages.image(900)
  let failure = TaggedImages.image(666)

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  /// Loads `url` into `view` with the placeholder and `failureImage`, and
  /// waits for the completion.
  @MainActor private func load(
    _ url: URL?, into view: FakeImageView, manager: ImageManager, failureImage: Image?,
    options: ImageDisplayOptions = []
  ) async -> Result<ImageResult, MagpieError> {
    await withCheckedContinuation { continuation in
      view.magpie.setImage(
        with: url, placeholder: placeholder, failureImage: failureImage, displayOptions: options, manager: manager
      ) { continuation.resume(returning: $0) }
    }
  }

  @MainActor @Test func aFailureShowsTheFailureImageThroughTheTransitionAfterThePlaceholder() async throws {
    loader.script(url("404.png"), .respond(status: 404, body: Data("no".utf8)))
    let view = FakeImageView()
    view.magpie.transition = .fade(.milliseconds(200))
    let result = await load(url("404.png"), into: view, manager: try manager(), failureImage: failure)
    #expect((try? result.get()) == nil)
    #expect(view.events == [.placeholder(900), .image(666, .fade(.milliseconds(200))), .layout])
    #expect(view.indicator.starts == 1 && view.indicator.stops == 1)
    #expect(view.magpie.hasFailedLoad)
  }

  @MainActor @Test func theBindingsFailureImageServesCallsThatNameNone() async throws {
    loader.script(url("gone.png"), .respond(status: 500, body: Data("down".utf8)))
    let manager = try manager()
    let view = FakeImageView()
    view.magpie.failureImage = failure
    _ = await load(url("gone.png"), into: view, manager: manager, failureImage: nil)
    #expect(view.events == [.placeholder(900), .image(666, .none), .layout])
    // A call's own failure image wins over the binding's.
    view.clearEvents()
    _ = await load(url("gone.png"), into: view, manager: manager, failureImage: TaggedImages.image(667))
    #expect(view.events == [.placeholder(900), .image(667, .none), .layout])
  }

  @MainActor @Test func aDelayedPlaceholderStillWaitsAndTheFailureImageReplacesIt() async throws {
    loader.script(url("slow-404.png"), .respond(status: 404, body: Data("no".utf8)))
    let view = FakeImageView()
    _ = await load(
      url("slow-404.png"), into: view, manager: try manager(), failureImage: failure, options: .delayPlaceholder)
    #expect(view.events == [.image(666, .none), .layout])
  }

  @MainActor @Test func aNilURLShowsTheFailureImageAtOnceAndKeepsNoRetry() async throws {
    let view = FakeImageView()
    view.magpie.transition = .fade(.milliseconds(200))
    let result = await load(nil, into: view, manager: try manager(), failureImage: failure)
    #expect(view.events == [.image(666, .none), .layout])
    if case .failure(let error) = result { #expect(error.code == .invalidArgument) } else { Issue.record("loaded") }
    #expect(!view.magpie.hasFailedLoad)
    #expect(!view.magpie.retryFailedLoad())
  }

  @MainActor @Test func aRetryMakesTheFailedCallAgainWithItsCompletion() async throws {
    loader.script(
      url("flaky.png"), .respond(status: 503, body: Data("busy".utf8)), .respond(body: try TaggedImages.png(5)))
    let view = FakeImageView()
    view.magpie.transition = .fade(.milliseconds(100))
    let done = AsyncCounter()
    var results: [Result<ImageResult, MagpieError>] = []
    view.magpie.setImage(
      with: url("flaky.png"), placeholder: placeholder, failureImage: failure, manager: try manager()
    ) {
      results.append($0)
      done.increment()
    }
    await done.wait(for: 1)
    #expect(view.magpie.hasFailedLoad)
    view.clearEvents()
    #expect(view.magpie.retryFailedLoad())
    #expect(!view.magpie.hasFailedLoad)
    await done.wait(for: 2)
    #expect(view.events == [.placeholder(900), .image(5, .fade(.milliseconds(100))), .layout])
    #expect(results.count == 2 && (try? results[1].get().image).map(TaggedImages.tag) == 5)
    #expect(view.magpie.currentImageURL == url("flaky.png"))
    // Nothing failed last: nothing to retry.
    #expect(!view.magpie.retryFailedLoad())
    #expect(loader.requests.filter { $0.url == url("flaky.png") }.count == 2)
  }

  @MainActor @Test func aCancelledOrReplacedLoadShowsNoFailureImageAndKeepsNoRetry() async throws {
    loader.script(url("held.png"), .respond(status: 404, body: Data("no".utf8)))
    loader.suspend()
    let view = FakeImageView()
    let done = AsyncCounter()
    view.magpie.setImage(with: url("held.png"), placeholder: placeholder, failureImage: failure, manager: try manager())
    { _ in done.increment() }
    await loader.waitForStarts(1)
    view.magpie.cancelImageLoad()
    await done.wait(for: 1)
    loader.resume()
    #expect(view.events == [.placeholder(900)])
    #expect(!view.magpie.hasFailedLoad)
  }

  @MainActor @Test func aNewLoadForgetsTheFailure() async throws {
    loader.script(url("bad.png"), .respond(status: 404, body: Data("no".utf8)))
    loader.script(url("good.png"), .respond(body: try TaggedImages.png(7)))
    let manager = try manager()
    let view = FakeImageView()
    _ = await load(url("bad.png"), into: view, manager: manager, failureImage: failure)
    #expect(view.magpie.hasFailedLoad)
    _ = await load(url("good.png"), into: view, manager: manager, failureImage: failure)
    #expect(!view.magpie.hasFailedLoad)
    #expect(!view.magpie.retryFailedLoad())
    #expect(view.shownTag == 7)
  }
}
