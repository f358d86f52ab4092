import Foundation
import Magpie
import Testing

/// The articles' code does what the articles say it does, run against a
/// local nginx: the snippets are compiled by this target, and these run
/// them.
@Suite("Article snippets run")
struct ArticleSnippetRunTests {
  @Test("the Processors article's chain makes a rounded, inverted thumbnail")
  func theProcessorChainRuns() async throws {
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["photo-02.jpg"]))
    defer { nginx.stop() }
    let manager = ImageManager(configuration: try .standard(namespace: "article-processors"))
    let url = nginx.url("/photo-02.jpg")
    let chained = try await manager.image(for: ProcessorSnippets.chainedRequest(url)).image.pixels
    // The same chain without the article's processor, as the reference.
    let plain = try await manager.image(
      for: ImageRequest(
        url: url,
        processors: [
          ImageProcessors.Downsampling(size: PixelSize(width: 200, height: 200)),
          ImageProcessors.RoundCorner(radius: 12),
        ])
    ).image.pixels
    #expect(chained.size == plain.size)
    #expect(max(chained.width, chained.height) == 200)
    let inverted = chained.straightRGBA()
    let original = plain.straightRGBA()
    // A corner pixel is cut away (alpha 0), and alpha is kept as it was.
    #expect(inverted[3] == 0)
    var worst = 0
    for index in stride(from: 0, to: original.count, by: 4) where original[index + 3] == 255 {
      for channel in 0..<3 {
        worst = max(worst, abs(Int(inverted[index + channel]) - (255 - Int(original[index + channel]))))
      }
      #expect(inverted[index + 3] == 255)
    }
    #expect(worst == 0)
  }

  @Test("the Caching and Tiers article's manager writes through to its disk tier")
  func theTieredManagerRuns() async throws {
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["photo-03.jpg"]))
    defer { nginx.stop() }
    let url = nginx.url("/photo-03.jpg")
    let manager = try CachingSnippets.tieredManager()
    #expect(try await manager.image(for: ImageRequest(url: url)).cacheType == .none)
    manager.configuration.cache.memoryCache.removeAll()
    // Without the memory entry, the first tier (the disk) answers.
    #expect(try await manager.image(for: ImageRequest(url: url)).cacheType == .disk)
    let storage = CachingSnippets.SharedStorage()
    try await storage.storeData(Data([1, 2, 3]), forKey: "k", metadata: nil)
    #expect(try await storage.data(forKey: "k") == Data([1, 2, 3]))
    #expect(await storage.containsData(forKey: "k"))
    try await storage.removeData(forKey: "k")
    #expect(await storage.containsData(forKey: "k") == false)
  }
}
