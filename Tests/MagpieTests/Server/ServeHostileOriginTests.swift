import Foundation
import Magpie
import MagpieServer
import Testing

/// The loader's hostile-origin catalogue (``HostileCase``) behind `magpie
/// serve`: each ends in a clear status within the limits, and the server
/// goes on answering.
@Suite("Serve against hostile origins", .timeLimit(Sanitizer.suiteTimeLimit))
struct ServeHostileOriginTests {
  /// The status each case gets: 413 for a body over the limit, 504 for an
  /// origin too slow, 403 for a redirect out of http(s), 502 for a broken
  /// response.
  static func status(for hostile: HostileCase) -> Int {
    switch hostile {
    case .endlessBody, .endlessChunkedBody: 413
    case .stallAfterHead, .slowloris: 504
    case .redirectToFile, .redirectToData: 403
    case .gzipBomb, .deflateBomb, .bodyShorterThanContentLength, .hugeHead, .redirectLoop: 502
    }
  }

  @Test(
    "a hostile origin ends in its status, bounded in time, and the server keeps serving",
    arguments: HostileCase.allCases)
  func catalogue(hostile: HostileCase) async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    let path = hostile.install(on: origin)
    // A process of its own, so its times are its own, not those of this
    // test process's busy threads.
    let serve = try ServeProcess([
      "--unsafe", "--allow-private-sources", "--max-source-bytes", "\(HostileCase.maximumBodySize)",
      "--download-timeout-ms", "1500", "--request-timeout-ms", "20000",
    ])
    let clock = ContinuousClock()
    let start = clock.now
    let source = URL(string: "http://127.0.0.1:\(origin.port)\(path)")!
    let answer = try await HTTPProbe.send(
      port: serve.port, path: URLSigner.unsafePath(options: ServeHarness.fit(10, 10), source: source))
    #expect(answer.status == Self.status(for: hostile), "\(String(decoding: answer.body, as: UTF8.self))")
    #expect(clock.now - start < .seconds(10 * Sanitizer.slowdown))
    #expect(try await HTTPProbe.send(port: serve.port, path: "/health").status == 200)
    serve.send(SIGTERM)
    #expect(await serve.exitStatus() == 0)
  }
}
