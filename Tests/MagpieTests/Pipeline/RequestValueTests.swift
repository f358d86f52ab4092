import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `ImageRequest` and `ImageResult` keep their fields in one shared
/// reference (copies are cheap); they must still behave as values: a
/// change to one copy never shows in another.
@Suite struct RequestValueTests {
  @Test func changingACopyOfARequestLeavesTheOriginal() {
    let url = URL(string: "https://images.example.com/a.png")!
    let original = ImageRequest(url: url, options: [.cacheOriginalImage], priority: .low)
    var copy = original
    copy.priority = .high
    copy.options.insert(.forceRefresh)
    copy.processors.append(ImageProcessors.Resizing(size: PixelSize(width: 8, height: 8)))
    copy.source = .network(URLRequest(url: URL(string: "https://images.example.com/b.png")!))
    #expect(original.priority == .low)
    #expect(original.options == [.cacheOriginalImage])
    #expect(original.processors.isEmpty)
    #expect(original.url == url)
    #expect(original.sourceKey(defaultFilter: .absoluteString) == url.absoluteString)
    #expect(copy.sourceKey(defaultFilter: .absoluteString) == "https://images.example.com/b.png")
    #expect(copy.priority == .high && copy.processors.count == 1)
  }

  @Test func changingACopyOfAResultLeavesTheOriginal() {
    let request = ImageRequest(url: URL(string: "https://images.example.com/a.png")!)
    let original = ImageResult(
      image: Image(pixels: PixelBuffer(width: 2, height: 2)), cacheType: .memory, request: request, data: nil,
      metrics: ImageTaskMetrics())
    var copy = original
    copy.cacheType = .none
    copy.image = Image(pixels: PixelBuffer(width: 3, height: 1))
    copy.request.priority = .veryHigh
    copy.data = Data([1])
    #expect(original.cacheType == .memory)
    #expect(original.image.pixelSize == PixelSize(width: 2, height: 2))
    #expect(original.request.priority == .normal)
    #expect(original.data == nil)
    #expect(copy.image.pixelSize == PixelSize(width: 3, height: 1) && copy.request.priority == .veryHigh)
  }
}
