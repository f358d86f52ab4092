import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// ``DataLoading/data(for:)``: the whole body in one call, natively
  /// collected by ``CurlDataLoader`` and read from the stream by the
  /// protocol's default (``URLSessionDataLoader``). The behaviour suites
  /// run on it too, as ``LoaderKind/curlWholeBody``.
  @Suite("Whole bodies")
  struct WholeBodies {
    static let loaders: [@Sendable (DataLoaderConfiguration) -> any DataLoading] = [
      { CurlDataLoader(configuration: $0) }, { URLSessionDataLoader(configuration: $0) },
    ]

    @Test("The body arrives whole, announced or chunked", arguments: 0..<2)
    func wholeBody(loader index: Int) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      // Larger than libcurl's 100 KiB receive buffer: several callbacks.
      let body = pngLikeBytes(1_234_567)
      origin.route("/announced.png", .ok(body))
      origin.route("/chunked.png", .chunked(body, pieces: 9, trailer: false))
      let loader = Self.loaders[index](quickConfiguration())
      for path in ["/announced.png", "/chunked.png"] {
        let (data, response) = try await loader.data(for: URLRequest(url: origin.url(path)))
        #expect(response.statusCode == 200, "\(path)")
        #expect(data == body, "\(path)")
      }
    }

    @Test("Progress comes on the way for a slow body and at the end", arguments: 0..<2)
    func progress(loader index: Int) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      // 80 bytes, one every 10 ms: 0.8 s of body, past 50 ms many times.
      let body = pngLikeBytes(80)
      origin.route("/slow.png", .slowloris(body, interval: .milliseconds(10)))
      origin.route("/quick.png", .ok(pngLikeBytes(5000)))
      let loader = Self.loaders[index](quickConfiguration())
      let seen = Lock<[(Int64, Int64?)]>([])
      let (data, _) = try await loader.data(for: URLRequest(url: origin.url("/slow.png"))) { received, expected in
        seen.withLock { $0.append((received, expected)) }
      }
      #expect(data == body)
      let reports = seen.withLock { $0 }
      #expect(reports.count >= 2, "\(reports)")
      #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 <= $1.0 })
      #expect(reports.allSatisfy { $0.1 == 80 })
      #expect(reports.last?.0 == 80)
      // A quick body still ends with its total.
      seen.withLock { $0.removeAll() }
      _ = try await loader.data(for: URLRequest(url: origin.url("/quick.png"))) { received, expected in
        seen.withLock { $0.append((received, expected)) }
      }
      #expect(seen.withLock { $0.last.map { $0.0 == 5000 && $0.1 == 5000 } } == true)
    }

    @Test("Statuses and limits fail the call with the loader's errors", arguments: 0..<2)
    func failures(loader index: Int) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/missing.png", .status(404))
      origin.route("/large.png", .chunked(pngLikeBytes(100_001), pieces: 7, trailer: false))
      origin.route("/page.png", .html("<html><body>not an image</body></html>"))
      var configuration = quickConfiguration()
      configuration.maximumBodySize = 100_000
      let loader = Self.loaders[index](configuration)
      for (path, code) in [("/missing.png", MagpieError.Code.httpStatus), ("/large.png", .invalidResponse)]
        + [("/page.png", .invalidResponse)]
      {
        do {
          _ = try await loader.data(for: URLRequest(url: origin.url(path)))
          Issue.record("\(path) loaded")
        } catch {
          #expect(error.code == code, "\(path): \(error)")
        }
      }
    }

    @Test("Cancelling the caller mid-body ends the call and closes the connection", arguments: 0..<2)
    func cancelMidBody(loader index: Int) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/half.png", .stallMidBody(pngLikeBytes(200_000), sent: 50_000))
      let loader = Self.loaders[index](quickConfiguration(timeout: .seconds(60), resourceTimeout: .seconds(60)))
      let call = Task { () throws(MagpieError) -> Data in
        try await loader.data(for: URLRequest(url: origin.url("/half.png"))).0
      }
      #expect(await origin.waitForRequests("/half.png"))
      call.cancel()
      switch await call.result {
      case .success: Issue.record("the half body loaded")
      case .failure(let error): #expect((error as? MagpieError)?.code == .cancelled, "\(error)")
      }
      #expect(await origin.waitForClientClose("/half.png"))
    }
  }
}
