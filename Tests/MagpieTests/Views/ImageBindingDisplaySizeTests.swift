import Foundation
import Testing

@testable import Magpie

/// Size-aware loads: a target's display size, rounded down to 8-pixel
/// buckets, becomes the request's size; a grown target reloads once, a
/// shrunk one or one grown within its bucket does not.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingDisplaySizeTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let placeholder = TaggedImages.image(900)

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  @MainActor private func sizedView(_ width: Int, _ height: Int, mode: ImageProcessors.Resizing.Mode) -> FakeImageView {
    let view = FakeImageView()
    view.pixelSize = PixelSize(width: width, height: height)
    view.contentMode = mode
    view.magpie.loadsAtDisplaySize = true
    return view
  }

  @MainActor private func load(_ url: URL, into view: FakeImageView, manager: ImageManager) async -> Image? {
    await withCheckedContinuation { continuation in
      view.magpie.setImage(with: url, placeholder: placeholder, manager: manager) {
        continuation.resume(returning: try? $0.get().image)
      }
    }
  }

  @MainActor @Test func aFillingCellGetsItsBucketExactlyAndAFittingOneNoMore() async throws {
    loader.script(url("big.png"), .respond(body: try png(width: 1600, height: 1067)))
    let manager = try manager()
    let cell = sizedView(240, 180, mode: .fill)
    let filled = await load(url("big.png"), into: cell, manager: manager)
    #expect(
      filled.map { PixelSize(width: $0.pixels.width, height: $0.pixels.height) } == PixelSize(width: 240, height: 176))
    let fitting = sizedView(250, 250, mode: .fit)
    let fitted = await load(url("big.png"), into: fitting, manager: manager)
    #expect(
      fitted.map { PixelSize(width: $0.pixels.width, height: $0.pixels.height) } == PixelSize(width: 248, height: 165))
    // Off: full size.
    let plain = FakeImageView()
    plain.pixelSize = PixelSize(width: 240, height: 180)
    let full = await load(url("big.png"), into: plain, manager: manager)
    #expect(full?.pixels.width == 1600)
  }

  @MainActor @Test func cellsInOneBucketShareOneImageAndAGrownCellReloadsOnce() async throws {
    loader.script(url("photo.png"), .respond(body: try png(width: 800, height: 600)))
    let manager = try manager()
    let first = sizedView(240, 180, mode: .fill)
    _ = await load(url("photo.png"), into: first, manager: manager)
    // A cell a few pixels bigger is in the same bucket: a memory hit.
    let second = sizedView(246, 183, mode: .fill)
    _ = await load(url("photo.png"), into: second, manager: manager)
    #expect(second.events == [.image(TaggedImages.tag(second.shown!), .none), .layout])
    #expect(loader.requests.count == 1)

    // Growing within the bucket, or shrinking, loads nothing.
    first.pixelSize = PixelSize(width: 247, height: 183)
    #expect(!first.magpie.displaySizeDidChange())
    first.pixelSize = PixelSize(width: 100, height: 80)
    #expect(!first.magpie.displaySizeDidChange())

    // Growing past it loads once at the new bucket, shown at once with no
    // placeholder or spinner, and no completion called again.
    first.clearEvents()
    first.pixelSize = PixelSize(width: 400, height: 300)
    first.magpie.transition = .fade(.milliseconds(100))
    #expect(first.magpie.displaySizeDidChange())
    #expect(!first.magpie.displaySizeDidChange())
    await first.layouts.wait(for: 2)
    #expect(
      first.shown.map { PixelSize(width: $0.pixels.width, height: $0.pixels.height) }
        == PixelSize(width: 400, height: 296))
    #expect(first.events == [.image(TaggedImages.tag(first.shown!), .none), .layout])
    #expect(first.indicator.starts == 1)
    #expect(!first.magpie.displaySizeDidChange())
    #expect(loader.requests.count == 2)
  }

  @MainActor @Test func aCellThatGrewWhileLoadingReloadsWhenTheLoadEnds() async throws {
    loader.script(url("slow.png"), .respond(body: try png(width: 800, height: 600)))
    loader.suspend()
    let manager = try manager()
    let cell = sizedView(160, 120, mode: .fill)
    var completions = 0
    cell.magpie.setImage(with: url("slow.png"), manager: manager) { _ in completions += 1 }
    await loader.waitForStarts(1)
    cell.pixelSize = PixelSize(width: 320, height: 240)
    // Still loading: nothing to reload yet.
    #expect(!cell.magpie.displaySizeDidChange())
    loader.resume()
    await cell.layouts.wait(for: 2)
    #expect(
      cell.shown.map { PixelSize(width: $0.pixels.width, height: $0.pixels.height) }
        == PixelSize(width: 320, height: 240))
    #expect(completions == 1)
    #expect(loader.requests.count == 2)
  }

  @Test func bucketsRoundDownToEightPixelsAndCompareOnEitherAxis() {
    let bucket = DisplaySizeBucket(containing: PixelSize(width: 240, height: 180), mode: .fill)
    #expect(bucket.size == PixelSize(width: 240, height: 176))
    #expect(
      DisplaySizeBucket(containing: PixelSize(width: 5, height: 3), mode: .fit).size == PixelSize(width: 8, height: 8)
    )
    #expect(!bucket.isSmaller(than: DisplaySizeBucket(containing: PixelSize(width: 247, height: 183), mode: .fill)))
    #expect(bucket.isSmaller(than: DisplaySizeBucket(containing: PixelSize(width: 240, height: 184), mode: .fill)))
    #expect(bucket.isSmaller(than: DisplaySizeBucket(containing: PixelSize(width: 248, height: 100), mode: .fill)))
  }
}
