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

  /// A photo-like 256x192 JPEG, progressive or baseline.
  private func jpeg(progressive: Bool) throws -> [UInt8] {
    var bytes = [UInt8]()
    for y in 0..<192 {
      for x in 0..<256 { bytes += [UInt8((x * 3 + y) % 256), UInt8((x ^ y) % 256), UInt8((y * 5) % 256), 255] }
    }
    let photo = Image(pixels: PixelBuffer(width: 256, height: 192, straightRGBA: bytes))
    return [UInt8](
      try CoderRegistry.shared.encode(photo, as: .jpeg, options: EncodeOptions(quality: 90, progressive: progressive)))
  }

  /// `raw` cut before each start of scan after the first: chunk 1 holds
  /// the first scan's start only, and each later chunk completes one scan.
  private func scanChunks(_ raw: [UInt8]) -> [Data] {
    var cuts: [Int] = []
    for index in 0..<(raw.count - 1) where raw[index] == 0xFF && raw[index + 1] == 0xDA { cuts.append(index) }
    var chunks: [Data] = []
    var start = 0
    for cut in cuts.dropFirst() + [raw.count] {
      chunks.append(Data(raw[start..<cut]))
      start = cut
    }
    return chunks
  }

  /// Events other than layouts.
  @MainActor private func shown(_ view: FakeImageView) -> [FakeImageView.Event] {
    view.events.filter { $0 != .layout }
  }

  @MainActor @Test func eachScanShowsAPreviewWithoutTransitionThenTheFinalImageWithIt() async throws {
    let chunks = scanChunks(try jpeg(progressive: true))
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
    let chunks = scanChunks(try jpeg(progressive: true))
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
    let raw = try jpeg(progressive: false)
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
}
