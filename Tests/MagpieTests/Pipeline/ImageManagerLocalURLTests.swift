import Foundation
import Testing

@testable import Magpie

#if canImport(Glibc)
  import Glibc
#endif

/// `file://` and `data:` URLs load through the pipeline as network URLs do,
/// read where they are: kept out of the disk unless asked, bounded, and
/// refused cleanly when they are not a regular file or not well formed.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct ImageManagerLocalURLTests {
  let directory: TemporaryDirectory
  let file: URL
  let bytes: Data
  let disk: DiskCache

  init() throws {
    directory = try TemporaryDirectory()
    file = try directory.servingSamples(["cutout-01.png"]).appendingPathComponent("cutout-01.png")
    bytes = try Data(contentsOf: file)
    disk = try DiskCache(configuration: .init(directory: directory.url.appendingPathComponent("cache")))
  }

  private func manager(limit: Int64? = nil) -> ImageManager {
    var configuration = ImageManager.Configuration(
      cache: ImageCache(memoryCache: .frozen(), diskCache: disk, trimsOnMemoryPressure: false),
      downloader: ImageDownloader(configuration: .init(dataLoader: CurlDataLoader(), rateLimit: nil)))
    if let limit { configuration.maximumLocalSourceBytes = limit }
    return ImageManager(configuration: configuration)
  }

  private func expectedPixels() throws -> PixelBuffer { try CoderRegistry.shared.decode(bytes).pixels }

  @Test func dataURLsDecodeAsBase64AndAsPercentEscapes() async throws {
    let base64 = bytes.base64EncodedString()
    let unpadded = base64.replacingOccurrences(of: "=", with: "")
    let escaped = bytes.map { String(format: "%%%02X", $0) }.joined()
    let texts = [
      "data:image/png;base64,\(base64)", "data:;base64,\(unpadded)", "data:image/png,\(escaped)",
    ]
    let manager = manager()
    for text in texts {
      let result = try await manager.image(for: ImageRequest(url: URL(string: text)!))
      #expect(result.image.pixels == (try expectedPixels()))
    }
  }

  @Test func aFileURLLoadsThroughThePipelineAndReachesTheDiskOnlyWhenAsked() async throws {
    let manager = manager()
    let first = try await manager.image(for: ImageRequest(url: file))
    #expect(first.cacheType == .none)
    #expect(first.image.pixels == (try expectedPixels()))
    await manager.waitForPendingWrites()
    #expect(try disk.count() == 0)
    #expect(try await manager.image(for: ImageRequest(url: file)).cacheType == .memory)

    // Another processed result, so the memory cache cannot answer.
    let asked = ImageRequest(
      url: file, processors: [ImageProcessors.Downsampling(size: PixelSize(width: 50, height: 50))],
      options: [.cacheLocalSources])
    _ = try await manager.image(for: asked)
    await manager.waitForPendingWrites()
    #expect(try disk.count() > 0)
  }

  @Test func whatIsNotARegularFileOrIsTooLargeIsRefusedBeforeItIsRead() async throws {
    let fifo = directory.path("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    let cases: [(URL, MagpieError.Code)] = [
      (URL(fileURLWithPath: fifo), .fileSystem),
      (directory.url, .fileSystem),
      (URL(fileURLWithPath: directory.path("absent.png")), .fileSystem),
      (URL(string: "data:image/png;base64")!, .invalidArgument),
      (URL(string: "data:;base64,A")!, .invalidArgument),
      (URL(string: "data:image/png;base64,%21%21%21")!, .invalidArgument),
    ]
    let manager = manager()
    for (url, code) in cases {
      await #expect(throws: MagpieError.self) { try await manager.image(for: ImageRequest(url: url)) }
      do {
        _ = try await manager.image(for: ImageRequest(url: url, options: [.retryFailed]))
      } catch {
        #expect(error.code == code, "\(url)")
      }
    }
    let small = self.manager(limit: Int64(bytes.count - 1))
    for url in [file, URL(string: "data:;base64,\(bytes.base64EncodedString())")!] {
      do {
        _ = try await small.image(for: ImageRequest(url: url))
        Issue.record("\(url.scheme!) over the limit loaded")
      } catch {
        #expect(error.code == .limitExceeded)
      }
    }
  }

  @Test func magpieFetchTakesFileAndDataURLs() async throws {
    let output = directory.path("out.png")
    // A small image: a command line holds at most 128 KiB an argument.
    let small = try CoderRegistry.shared.encode(
      Image(pixels: PixelBuffer(width: 12, height: 7, straightRGBA: [UInt8](repeating: 90, count: 12 * 7 * 4))),
      as: .png)
    let urls = [(file.absoluteString, 400), ("data:image/png;base64,\(small.base64EncodedString())", 12)]
    for (url, width) in urls {
      let run = try await CLIRunner.run([
        "fetch", url, "-o", output, "--cache-dir", directory.path("cli-cache"), "--json",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("\"width\":\(width)"), "\(run.stdout)")
    }
  }
}
