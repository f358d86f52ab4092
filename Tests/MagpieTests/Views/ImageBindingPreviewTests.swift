import Foundation
import Testing

@testable import Magpie

/// Progressive previews in views (Nuke's preview policy): each new scan of
/// a progressive JPEG shows without a transition, the final image with it.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageBindingPreviewTests: ImageManagerFixture {
  let parts: ImageManagerFixtureParts
  let placeholder = TaggedImages.image(900)

  init() throws {
    parts = try ImageManagerFixtureParts()
  }

  /// Events other than layouts.
  @MainActor private func shown(_ view: FakeImageView) -> [FakeImageView.Event] {
    view.events.filter { $0 != .layout }
  }

  @MainActor @Test func eachScanShowsAPreviewWithoutTransitionThenTheFinalImageWithIt() async throws {
    let chunks = try ScanChunkedJPEG.progressiveChunks()
    #expect(chunks.count >= 4)
    loader.script(url("p.jpg"), .respondInChunks(chunks: chunks))
    loader.paceChunks()
    let view = FakeImageView()
    view.magpie.transition = .crossDissolve(.milliseconds(200))
    let done = AsyncCounter()
    var final: Image?
    view.magpie.setImage(with: url("p.jpg"), placeholder: placeholder, manager: try manager()) {
      final = try? $0.get().image
      done.increment()
    }
    // One chunk at a time, each preview awaited before the next chunk:
    // chunks 2 to n-1 each complete a scan and show it; the last chunk
    // completes the file, whose final image needs no preview.
    loader.allowChunks(1)
    for count in 1...(chunks.count - 2) {
      loader.allowChunks(1)
      await view.previewsShown.wait(for: count)
    }
    loader.allowChunks(1)
    await done.wait(for: 1)
    let previews = Array(repeating: FakeImageView.Event.preview(.none), count: chunks.count - 2)
    let finalTag = TaggedImages.tag(try #require(final))
    #expect(shown(view) == [.placeholder(900)] + previews + [.image(finalTag, .crossDissolve(.milliseconds(200)))])
    #expect(final?.isPartial == false)
  }

  @MainActor @Test func aDisabledPolicyShowsNoPreviews() async throws {
    let chunks = try ScanChunkedJPEG.progressiveChunks()
    loader.script(url("d.jpg"), .respondInChunks(chunks: chunks))
    let view = FakeImageView()
    view.magpie.previewPolicy = .disabled
    await withCheckedContinuation { continuation in
      view.magpie.setImage(with: url("d.jpg"), placeholder: placeholder, manager: try! manager()) { _ in
        continuation.resume()
      }
    }
    #expect(shown(view).count == 2)
    #expect(!shown(view).contains(.preview(.none)))
  }

  @MainActor @Test func aBaselineJPEGHasNoScansToPreview() async throws {
    let raw = try ScanChunkedJPEG.bytes(progressive: false)
    let quarter = raw.count / 4
    let chunks = (0..<4).map { Data(raw[($0 * quarter)..<($0 == 3 ? raw.count : ($0 + 1) * quarter)]) }
    loader.script(url("b.jpg"), .respondInChunks(chunks: chunks))
    let view = FakeImageView()
    await withCheckedContinuation { continuation in
      view.magpie.setImage(with: url("b.jpg"), placeholder: placeholder, manager: try! manager()) { _ in
        continuation.resume()
      }
    }
    #expect(shown(view).count == 2)
    #expect(!shown(view).contains(.preview(.none)))
  }

  @MainActor @Test func aThumbnailPolicyShowsTheEmbeddedThumbnailTurnedBeforeTheImage() async throws {
    let (jpeg, exifEnd) = try EXIFThumbnailJPEG.bytes(orientation: 6)
    loader.script(
      url("t.jpg"), .respondInChunks(chunks: [Data(jpeg[..<exifEnd]), Data(jpeg[exifEnd...])]))
    loader.paceChunks()
    let view = FakeImageView()
    view.magpie.previewPolicy = .thumbnail
    view.magpie.transition = .fade(.milliseconds(100))
    let done = AsyncCounter()
    var final: Image?
    view.magpie.setImage(with: url("t.jpg"), placeholder: placeholder, manager: try manager()) {
      final = try? $0.get().image
      done.increment()
    }
    loader.allowChunks(1)
    await view.previewsShown.wait(for: 1)
    // The red 32x24 thumbnail, turned as the blue image is (orientation 6).
    let preview = try #require(view.shown)
    #expect(preview.pixels.width == 24 && preview.pixels.height == 32)
    let pixel = preview.pixels[12, 16]
    #expect(pixel.x > 200 && pixel.z < 60)
    loader.allowChunks(1)
    await done.wait(for: 1)
    let image = try #require(final)
    #expect(image.pixels.width == 192 && image.pixels.height == 256 && image.pixels[96, 128].z > 200)
    #expect(
      shown(view) == [.placeholder(900), .preview(.none), .image(TaggedImages.tag(image), .fade(.milliseconds(100)))])
  }
}
