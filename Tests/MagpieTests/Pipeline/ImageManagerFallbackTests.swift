import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Alternative sources at real origins: a dead or failing primary falls
/// back to the next source in order; when every source fails, the error
/// says why each one did.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct ImageManagerFallbackTests {
  let directory: TemporaryDirectory
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
  }

  private func manager() -> ImageManager {
    ImageManager(
      configuration: .init(
        cache: ImageCache(memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false),
        downloader: ImageDownloader(
          configuration: .init(dataLoader: CurlDataLoader(), retryPolicy: .never, rateLimit: nil))))
  }

  @Test func aFailingPrimaryFallsBackToTheNextSourceInOrder() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    let faults = try FaultOrigin()
    defer { faults.stop() }
    faults.route("/broken.png", .status(500))
    var request = ImageRequest(url: faults.url("/broken.png"))
    request.alternativeSources = [
      .network(URLRequest(url: origin.url("/absent.png"))), .network(URLRequest(url: origin.url("/cutout-01.png"))),
      .network(URLRequest(url: origin.url("/cutout-01.png?never"))),
    ]
    let result = try await manager().image(for: request)
    #expect(
      result.image.pixels
        == (try CoderRegistry.shared.decode(Data(contentsOf: root.appendingPathComponent("cutout-01.png"))).pixels))
    #expect(result.request.url == faults.url("/broken.png"))
    #expect(faults.requestCount("/broken.png") == 1)
    #expect(try origin.loggedURIs() == ["/absent.png", "/cutout-01.png"])
  }

  @Test func whenEverySourceFailsTheErrorSaysWhyEachDid() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    var request = ImageRequest(url: origin.url("/first.png"))
    request.alternativeSources = [.network(URLRequest(url: origin.url("/second.png")))]
    do {
      _ = try await manager().image(for: request)
      Issue.record("a load with no source that exists succeeded")
    } catch {
      #expect(error.code == .httpStatus)
      #expect(error.statusCode == 404)
      #expect(error.reason.contains("/first.png") && error.reason.contains("/second.png"), "\(error.reason)")
    }
    #expect(try origin.loggedURIs() == ["/first.png", "/second.png"])
  }
}
