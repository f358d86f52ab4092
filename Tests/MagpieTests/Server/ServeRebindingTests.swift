import Foundation
import Testing

@testable import Magpie
@testable import MagpieServer

/// The address check at connect time: a host that resolved to a public
/// address when the policy looked, and to a private one when curl
/// connects (DNS rebinding), is still refused.
@Suite("Serve DNS rebinding")
struct ServeRebindingTests {
  @Test("CurlDataLoader's address filter refuses a connection and names the address; allowing it loads")
  func loaderFilter() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/a.png", .ok(try Data(contentsOf: TestPaths.photo("birds"))))
    let url = URL(string: "http://127.0.0.1:\(origin.port)/a.png")!
    var refusing = DataLoaderConfiguration()
    refusing.addressFilter = { $0 != [127, 0, 0, 1] }
    let refused = await LoadOutcome.load(url, with: CurlDataLoader(configuration: refusing))
    #expect(refused.error?.code == .network)
    #expect(refused.error?.reason.contains("127.0.0.1") == true)
    #expect(refused.error?.reason.contains("addressFilter") == true)
    #expect(refused.error?.refusal == .addressFilter)
    #expect(origin.requests("/a.png").isEmpty)
    var allowing = DataLoaderConfiguration()
    allowing.addressFilter = { $0.count == 4 }
    let loaded = await LoadOutcome.load(url, with: CurlDataLoader(configuration: allowing))
    #expect(loaded.error == nil)
    #expect(URLSessionDataLoader.refusal(for: refusing) != nil)  // it cannot honour the filter
  }

  @Test("a source whose name resolved public at the check but connects to loopback is 403, never fetched")
  func rebinding() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/a.png", .ok(try Data(contentsOf: TestPaths.photo("birds"))))
    var configuration = ServeHarness.configuration(allowingPrivate: false)
    // The resolver the policy asks answers "public" (the attacker's first
    // answer); curl's own lookup then finds 127.0.0.1.
    configuration.sources.resolve = { _ in .success([.publicAddress]) }
    let harness = try ServeHarness(configuration)
    let answer = try await harness.get(
      ServeHarness.path(ServeHarness.fit(10, 10), URL(string: "http://127.0.0.1:\(origin.port)/a.png")!))
    #expect(answer.status == 403)
    #expect(String(decoding: answer.body, as: UTF8.self).contains("not public"))
    #expect(origin.requests("/a.png").isEmpty)
    await harness.stop()
  }
}
