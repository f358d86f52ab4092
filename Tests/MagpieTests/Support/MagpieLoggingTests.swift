import Foundation
import Testing

@testable import Magpie

/// Magpie's logging (issue 35, item 9): silent by default, and when a
/// handler is bootstrapped, entries from the loader, the caches and the
/// decoders at and above its level. The handler is process-wide, so these
/// tests run one at a time and put silence back.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct MagpieLoggingTests {
  final class Collector: MagpieLogging.Handler {
    let entries = Lock<[MagpieLogging.Entry]>([])
    func log(_ entry: MagpieLogging.Entry) { entries.withLock { $0.append(entry) } }
    var lines: [String] { entries.withLock { $0.map { "\($0.level.name) \($0.source): \($0.message)" } } }
  }

  @Test func silentByDefaultAndNoMessageIsBuilt() {
    MagpieLogging.bootstrap(nil)
    let built = Lock(false)
    MagpieLogging.log(
      .critical, "test",
      { () -> String in
        built.withLock { $0 = true }; return "x"
      }())
    #expect(!built.withLock { $0 })
    #expect(!MagpieLogging.isLogging(.critical))
  }

  @Test func theLoaderCachesAndDecodersLogAtAndAboveTheLevel() async throws {
    let collector = Collector()
    MagpieLogging.bootstrap(collector, level: .debug)
    defer { MagpieLogging.bootstrap(nil) }
    let directory = try TemporaryDirectory()
    let root = try directory.servingSamples(["cutout-01.png"])
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let remote = InMemoryStorage()
    remote.failReads(with: MagpieError(.network, "the remote tier is down"))
    let manager = ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), tiers: [CacheTier(remote)], trimsOnMemoryPressure: false),
        downloader: ImageDownloader(
          configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil))))
    _ = try await manager.image(for: ImageRequest(url: origin.url("/cutout-01.png")))
    _ = try? await manager.image(for: ImageRequest(url: origin.url("/absent.png")))
    _ = try? CoderRegistry.shared.decode(Data("not an image".utf8))
    let lines = collector.lines
    #expect(lines.contains { $0.hasPrefix("debug loader: downloaded") && $0.contains("/cutout-01.png: 200") })
    #expect(lines.contains { $0.hasPrefix("warning loader: downloading") && $0.contains("404") })
    #expect(lines.contains { $0.hasPrefix("warning cache: reading") && $0.contains("remote tier failed") })
    #expect(lines.contains { $0.hasPrefix("notice decoder: decoding 12 bytes failed") })
    // Above the level: only warnings and worse.
    MagpieLogging.bootstrap(collector, level: .warning)
    let before = collector.lines.count
    _ = try? CoderRegistry.shared.decode(Data("not an image".utf8))
    #expect(collector.lines.count == before)
  }

  @Test func verboseMagpiePrintsTheLogOnStandardError() async throws {
    let directory = try TemporaryDirectory()
    let origin = try NginxOrigin(serving: try directory.servingSamples(["cutout-01.png"]))
    defer { origin.stop() }
    let list = directory.path("urls.txt")
    try Data((origin.url("/cutout-01.png").absoluteString + "\n").utf8).write(to: URL(fileURLWithPath: list))
    let run = try await CLIRunner.run(["prefetch", list, "--cache-dir", directory.path("cache"), "--verbose"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("debug loader: downloaded"))
    let quiet = try await CLIRunner.run(["prefetch", list, "--cache-dir", directory.path("cache2")])
    #expect(!quiet.stderr.contains("loader:"))
  }
}
