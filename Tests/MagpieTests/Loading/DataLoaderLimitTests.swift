import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// The loader's size limits at their edges: exactly at a limit passes,
  /// one byte over fails with an error naming the limit and its value.
  @Suite("Limits")
  struct Limits {
    @Test("A head over maximumHeaderSize fails; a normal one passes", arguments: LoaderKind.allCases)
    func headerSize(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/big-head.png", .hugeHead(fieldBytes: 8000, body: pngLikeBytes(100)))
      origin.route("/plain.png", .ok(pngLikeBytes(100)))
      var configuration = quickConfiguration()
      configuration.maximumHeaderSize = 4096
      let loader = kind.make(configuration)
      let refused = await LoadOutcome.load(origin.url("/big-head.png"), with: loader)
      #expect(refused.error?.code == .invalidResponse)
      #expect(refused.error?.reason.contains("4096-byte limit (maximumHeaderSize)") == true)
      #expect(refused.body.isEmpty)
      let plain = await LoadOutcome.load(origin.url("/plain.png"), with: loader)
      #expect(plain.error == nil)
      // The default (64 KiB) takes the 8 KB head.
      let byDefault = await LoadOutcome.load(origin.url("/big-head.png"), with: kind.make(quickConfiguration()))
      #expect(byDefault.error == nil)
      #expect(DataLoaderConfiguration().maximumHeaderSize == 64 << 10)
    }

    @Test("A body of exactly maximumBodySize passes, announced or not", arguments: LoaderKind.allCases)
    func bodyAtLimit(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(100_000)
      origin.route("/announced.png", .ok(body))
      origin.route("/chunked.png", .chunked(body, pieces: 7, trailer: false))
      var configuration = quickConfiguration()
      configuration.maximumBodySize = Int64(body.count)
      let loader = kind.make(configuration)
      for path in ["/announced.png", "/chunked.png"] {
        let outcome = await LoadOutcome.load(origin.url(path), with: loader)
        #expect(outcome.error == nil, "\(path)")
        #expect(outcome.body == body, "\(path)")
      }
    }

    @Test("A chunked body one byte over maximumBodySize fails while streaming", arguments: LoaderKind.allCases)
    func chunkedBodyOverLimit(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let body = pngLikeBytes(100_001)
      origin.route("/chunked.png", .chunked(body, pieces: 7, trailer: false))
      var configuration = quickConfiguration()
      configuration.maximumBodySize = 100_000
      let outcome = await LoadOutcome.load(origin.url("/chunked.png"), with: kind.make(configuration))
      #expect(outcome.error?.code == .invalidResponse)
      #expect(outcome.error?.reason.contains("100000-byte limit (maximumBodySize)") == true)
      #expect(outcome.error?.refusal == .maximumBodySize)
      #expect(outcome.body.count <= 100_000)
    }
  }
}
