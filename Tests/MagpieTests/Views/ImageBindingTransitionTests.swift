import Foundation
import Testing

@testable import Magpie

/// Transitions and progress: what the binding hands a fake view for each
/// built-in transition, a custom one, and a download's progress.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingTransitionTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let placeholder = TaggedImages.image(900)

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @MainActor private func load(_ url: URL, into view: FakeImageView, manager: ImageManager) async {
    await withCheckedContinuation { continuation in
      view.magpie.setImage(with: url, placeholder: placeholder, manager: manager) { _ in continuation.resume() }
    }
  }

  @MainActor
  @Test(arguments: [
    ImageTransition.fade(.milliseconds(150)), .crossDissolve(.milliseconds(200)), .flip(.left, .milliseconds(300)),
    .flip(.right, .milliseconds(300)), .slide(.up, .milliseconds(250)), .slide(.down, .milliseconds(250)),
    .slide(.left, .milliseconds(250)), .slide(.right, .milliseconds(250)),
  ])
  func eachTransitionReachesTheTargetForALoadAndIsSkippedForAMemoryHit(_ transition: ImageTransition) async throws {
    loader.script(url("1.png"), .respond(body: try TaggedImages.png(1)))
    let manager = try manager()
    let view = FakeImageView()
    view.magpie.transition = transition
    await load(url("1.png"), into: view, manager: manager)
    #expect(view.events == [.placeholder(900), .image(1, transition), .layout])
    view.clearEvents()
    await load(url("1.png"), into: view, manager: manager)
    #expect(view.events == [.image(1, .none), .layout])
    view.clearEvents()
    view.magpie.setImage(with: url("1.png"), displayOptions: .forceTransition, manager: manager)
    #expect(view.events == [.image(1, transition), .layout])
    #expect(transition.duration > .zero)
  }

  @MainActor @Test func aCustomTransitionShowsTheImageInsteadOfTheTarget() async throws {
    loader.script(url("2.png"), .respond(body: try TaggedImages.png(2)))
    let manager = try manager()
    let view = FakeImageView()
    var shownByTransition: [Int] = []
    let custom = CustomImageTransition(name: "pop", duration: .milliseconds(120)) { target, image in
      shownByTransition.append(TaggedImages.tag(image))
      (target as? FakeImageView)?.display(image)
    }
    view.magpie.transition = .custom(custom)
    await load(url("2.png"), into: view, manager: manager)
    #expect(shownByTransition == [2])
    // The closure showed it its own way (no transition handed over).
    #expect(view.events == [.placeholder(900), .image(2, .none), .layout])
    #expect(ImageTransition.custom(custom).duration == .milliseconds(120))
    #expect(custom == CustomImageTransition(name: "pop", duration: .milliseconds(120)) { _, _ in })
    #expect(custom != CustomImageTransition(name: "fade", duration: .milliseconds(120)) { _, _ in })
  }

  @MainActor @Test func theIndicatorGetsEachChunksProgressInOrderBeforeTheImage() async throws {
    let body = try png(width: 64, height: 64)
    let chunk = (body.count + 3) / 4
    loader.script(url("p.png"), .respond(body: body, chunkSize: chunk))
    let view = FakeImageView()
    var seen: [ImageTask.Progress] = []
    await withCheckedContinuation { continuation in
      view.magpie.setImage(
        with: url("p.png"), manager: try! manager(), progress: { seen.append($0) },
        completion: { _ in continuation.resume() })
    }
    let total = Int64(body.count)
    let expected = (1...4).map { ImageTask.Progress(completed: min(total, Int64($0 * chunk)), total: total) }
    #expect(view.indicator.progress == expected)
    #expect(seen == expected)
    #expect(view.indicator.progress.last?.fraction == 1)
    #expect(view.indicator.stops == 1)
  }
}
