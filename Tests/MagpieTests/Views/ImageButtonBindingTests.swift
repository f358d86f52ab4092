import Foundation
import Testing

@testable import Magpie

/// Buttons: an image and a background per state, each its own load, and
/// the current URL falling back to the normal state's.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageButtonBindingTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @MainActor @Test func eachStateLoadsItsOwnImageAndTheCurrentURLFallsBackToNormal() async throws {
    for (name, tag) in [("n", 30), ("h", 31), ("bg", 32)] {
      loader.script(url("\(name).png"), .respond(body: try TaggedImages.png(tag)))
    }
    let manager = try manager()
    let button = FakeButton()
    let done = AsyncCounter()
    button.magpie.setImage(with: url("n.png"), for: .normal, manager: manager) { _ in done.increment() }
    button.magpie.setImage(with: url("h.png"), for: .highlighted, manager: manager) { _ in done.increment() }
    button.magpie.setBackgroundImage(with: url("bg.png"), for: .normal, manager: manager) { _ in done.increment() }
    await done.wait(for: 3)
    #expect(button.images == [.normal: 30, .highlighted: 31])
    #expect(button.backgrounds == [.normal: 32])
    #expect(button.magpie.currentImageURL == url("n.png"))
    button.controlState = .highlighted
    #expect(button.magpie.currentImageURL == url("h.png"))
    button.controlState = .disabled
    #expect(button.magpie.currentImageURL == url("n.png"))
    #expect(button.magpie.currentBackgroundImageURL == url("bg.png"))
    #expect(button.magpie.imageURL(for: .selected) == nil)
  }

  @MainActor @Test func aLoadForOneStateDoesNotCancelAnother() async throws {
    loader.script(url("s.png"), .respond(body: try TaggedImages.png(40)))
    loader.script(url("f.png"), .respond(body: try TaggedImages.png(41)))
    loader.suspend()
    let manager = try manager()
    let button = FakeButton()
    let done = AsyncCounter()
    let outcomes = Locked<[Bool]>([])
    for (name, state) in [("s", ControlState.selected), ("f", .focused)] {
      button.magpie.setImage(with: url("\(name).png"), for: state, manager: manager) { result in
        outcomes.withLock { $0.append((try? result.get()) != nil) }
        done.increment()
      }
    }
    loader.resume()
    await done.wait(for: 2)
    #expect(outcomes.value == [true, true])
    #expect(button.images == [.selected: 40, .focused: 41])
  }
}
