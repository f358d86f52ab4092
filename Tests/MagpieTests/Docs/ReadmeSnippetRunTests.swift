import Foundation
import Magpie
import Testing

/// The README tour's code, run against a local nginx: what each block's
/// comments say it does, it does.
@Suite("README snippets run")
struct ReadmeSnippetRunTests {
  @Test("the tour loads, awaits a task, plays and prefetches")
  func theTourRuns() async throws {
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["photo-07.jpg", "photo-08.jpg", "pan-01.gif"]))
    defer { nginx.stop() }
    let photo = nginx.url("/photo-07.jpg")
    let drawable = try await ReadmeSnippets.load(photo)
    #expect(max(drawable.width, drawable.height) == 256)
    #expect(drawable.alphaRepresentation == .premultiplied)

    let manager = try ReadmeSnippets.busyManager()
    let image = try await ReadmeSnippets.task(manager, ImageRequest(url: nginx.url("/photo-08.jpg")))
    #expect(image.pixels.size == PixelSize(width: 1024, height: 768))

    let target = AnimationSnippets.FrameView()
    let gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-01.gif"))
    let player = try ReadmeSnippets.play(gif, into: target)
    #expect(player.isVisible == false, "scrolled away: paused")
    player.stop()
    let loop = try #require(try await ReadmeSnippets.loadForPlayback(manager, nginx.url("/pan-01.gif"), into: target))
    #expect(loop.isPlaying)
    loop.stop()

    // photo-08 was loaded whole through this manager; photo-07 only as a thumbnail.
    let counts = await ReadmeSnippets.prefetch(manager, [photo, nginx.url("/photo-08.jpg")])
    #expect(counts.finished == 1 && counts.skipped == 1, "\(counts)")
  }

  @Test("the tour's layers sniff, decode small, store and encode")
  func theLayersRun() async throws {
    let data = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-01.jpg"))
    let url = URL(string: "https://example.com/readme-layers-\(UUID().uuidString).jpg")!
    let layers = try await ReadmeSnippets.layers(data, url)
    #expect(ImageFormat.sniff(layers.webp) == .webp)
    #expect(layers.stored.count == layers.drawable.width * layers.drawable.height * 4)
    // 1200x800 asked for at 256: JPEG shrinks by 1/2 at most while covering it.
    #expect(layers.drawable.size == PixelSize(width: 300, height: 200))
    let cache = try ImageCache(namespace: "thumbnails")
    #expect(await cache.containingTier(forKey: ImageCacheKey(source: url.absoluteString)) == .disk)
  }

  @Test("the tiered manager's second load comes from its disk tier")
  func theTieredLoadSaysWhichTierAnswered() async throws {
    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["photo-09.jpg"]))
    defer { nginx.stop() }
    let manager = try CachingSnippets.tieredManager()
    let request = ImageRequest(url: nginx.url("/photo-09.jpg"))
    #expect(try await ReadmeSnippets.tieredLoad(manager, request) == .none)
    #expect(try await ReadmeSnippets.tieredLoad(manager, request) == .memory)
  }
}
