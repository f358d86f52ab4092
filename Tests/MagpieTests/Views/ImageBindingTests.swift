import Foundation
import Testing

@testable import Magpie

/// A fake image view bound to a manager over a scripted loader: the exact
/// sequence of what the binding does to the target.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let placeholder = TaggedImages.image(900)

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  /// Loads `url` into `view` and waits for the completion.
  @MainActor private func load(
    _ url: URL?, into view: FakeImageView, manager: ImageManager, options: ImageDisplayOptions = []
  ) async -> Result<ImageResult, MagpieError> {
    await withCheckedContinuation { continuation in
      view.magpie.setImage(
        with: url, placeholder: placeholder, displayOptions: options, manager: manager
      ) { continuation.resume(returning: $0) }
    }
  }

  @MainActor @Test func thePlaceholderShowsAtOnceThenTheImageFadesInAndAMemoryHitShowsAtOnce() async throws {
    loader.script(url("1.png"), .respond(body: try TaggedImages.png(1)))
    let manager = try manager()
    let view = FakeImageView()
    view.magpie.transition = .fade(.milliseconds(200))
    let done = AsyncCounter()
    view.magpie.setImage(with: url("1.png"), placeholder: placeholder, manager: manager) { _ in done.increment() }
    #expect(view.events == [.placeholder(900)])
    #expect(view.indicator.starts == 1 && view.indicator.isAnimating)
    await done.wait(for: 1)
    #expect(view.events == [.placeholder(900), .image(1, .fade(.milliseconds(200))), .layout])
    #expect(view.indicator.stops == 1)
    #expect(view.magpie.currentImageURL == url("1.png"))

    // From memory: no placeholder, no spinner, no fade, before setImage returns.
    view.clearEvents()
    var completedInside = false
    view.magpie.setImage(with: url("1.png"), placeholder: placeholder, manager: manager) { result in
      completedInside = (try? result.get().cacheType) == .memory
    }
    #expect(completedInside)
    #expect(view.events == [.image(1, .none), .layout])
    #expect(view.indicator.starts == 1)

    // forceTransition fades a memory hit in too.
    view.clearEvents()
    view.magpie.setImage(
      with: url("1.png"), placeholder: placeholder, displayOptions: .forceTransition, manager: manager)
    #expect(view.events == [.image(1, .fade(.milliseconds(200))), .layout])
  }

  @MainActor @Test func aDelayedPlaceholderShowsOnlyAfterAFailure() async throws {
    loader.script(url("2.png"), .respond(body: try TaggedImages.png(2)))
    loader.script(url("missing.png"), .respond(status: 404, body: Data("no".utf8)))
    let manager = try manager()
    let view = FakeImageView()
    _ = await load(url("2.png"), into: view, manager: manager, options: .delayPlaceholder)
    #expect(view.events == [.image(2, .none), .layout])
    view.clearEvents()
    let failed = await load(url("missing.png"), into: view, manager: manager, options: .delayPlaceholder)
    #expect((try? failed.get()) == nil)
    #expect(view.events == [.placeholder(900)])
    #expect(view.indicator.starts == 2 && view.indicator.stops == 2)
  }

  @MainActor @Test func avoidAutoSetImageHandsTheImageToTheCompletionOnly() async throws {
    loader.script(url("3.png"), .respond(body: try TaggedImages.png(3)))
    let view = FakeImageView()
    let result = await load(url("3.png"), into: view, manager: try manager(), options: .avoidAutoSetImage)
    #expect(try TaggedImages.tag(result.get().image) == 3)
    #expect(view.events == [.placeholder(900)])
    #expect(!view.indicator.isAnimating)
  }

  @MainActor @Test func aNilURLShowsThePlaceholderAndSaysSo() async throws {
    let view = FakeImageView()
    let result = await load(nil, into: view, manager: try manager())
    #expect(view.events == [.placeholder(900)])
    #expect(view.indicator.starts == 0)
    #expect(view.magpie.currentImageURL == nil)
    guard case .failure(let error) = result else { throw MagpieError(.invalidArgument, "a nil URL loaded") }
    #expect(error.code == .invalidArgument && error.description.contains("nil URL"))
  }

  @MainActor @Test func aReplacedLoadNeverTouchesTheTarget() async throws {
    loader.script(url("a.png"), .respond(body: try TaggedImages.png(10)))
    loader.script(url("b.png"), .respond(body: try TaggedImages.png(11)))
    loader.suspend()
    let manager = try manager()
    let view = FakeImageView()
    let outcomes = AsyncCounter()
    var first: Result<ImageResult, MagpieError>?
    view.magpie.setImage(with: url("a.png"), placeholder: placeholder, manager: manager) {
      first = $0
      outcomes.increment()
    }
    view.magpie.setImage(with: url("b.png"), placeholder: placeholder, manager: manager) { _ in outcomes.increment() }
    loader.resume()
    await outcomes.wait(for: 2)
    #expect(view.events == [.placeholder(900), .placeholder(900), .image(11, .none), .layout])
    #expect(view.shownTag == 11)
    if case .failure(let error)? = first { #expect(error.code == .cancelled) } else { Issue.record("a.png showed") }
    #expect(view.indicator.starts == 2 && view.indicator.stops == 2)
  }

  @MainActor @Test func cancellingALoadLeavesTheTargetAndStopsTheDownload() async throws {
    loader.script(url("c.png"), .respond(body: try TaggedImages.png(12)))
    loader.suspend()
    let view = FakeImageView()
    let done = AsyncCounter()
    var outcome: Result<ImageResult, MagpieError>?
    view.magpie.setImage(with: url("c.png"), placeholder: placeholder, manager: try manager()) {
      outcome = $0
      done.increment()
    }
    await loader.waitForStarts(1)
    view.magpie.cancelImageLoad()
    await done.wait(for: 1)
    loader.resume()
    await loader.waitForCancels(1)
    #expect(view.events == [.placeholder(900)])
    #expect(view.indicator.starts == 1 && view.indicator.stops == 1)
    if case .failure(let error)? = outcome { #expect(error.code == .cancelled) } else { Issue.record("not cancelled") }
  }

  @MainActor @Test func theHighlightedImageLoadsUnderItsOwnKey() async throws {
    loader.script(url("n.png"), .respond(body: try TaggedImages.png(20)))
    loader.script(url("h.png"), .respond(body: try TaggedImages.png(21)))
    let manager = try manager()
    let view = FakeImageView()
    let done = AsyncCounter()
    view.magpie.setImage(with: url("n.png"), placeholder: placeholder, manager: manager) { _ in done.increment() }
    view.magpie.setHighlightedImage(with: url("h.png"), manager: manager) { _ in done.increment() }
    await done.wait(for: 2)
    #expect(view.events.contains(.highlighted(21)))
    #expect(view.events.contains(.image(20, .none)))
    #expect(view.magpie.highlightedImageURL == url("h.png"))
    #expect(view.magpie.currentImageURL == url("n.png"))
  }

  @MainActor @Test func aDroppedTargetCancelsItsLoadAndIsNotKeptAlive() async throws {
    loader.script(url("gone.png"), .respond(body: try TaggedImages.png(13)))
    loader.suspend()
    let manager = try manager()
    weak var dropped: FakeImageView?
    do {
      let view = FakeImageView()
      dropped = view
      view.magpie.setImage(with: url("gone.png"), placeholder: placeholder, manager: manager)
      await loader.waitForStarts(1)
    }
    #expect(dropped == nil)
    await loader.waitForCancels(1)
    loader.resume()
  }
}
