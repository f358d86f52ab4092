import Foundation
import Magpie
import Testing

@testable import MagpieServer

/// SSRF: sources on loopback, link-local and private addresses are refused
/// unless allowed, also behind a redirect; the allow-list is enforced.
@Suite("Serve source policy")
struct ServeSourcePolicyTests {
  @Test("address classes: loopback, private, link-local, CGNAT, mapped and NAT64 IPv4, IPv6 local are private")
  func addressClasses() {
    let privates: [AddressClass] = [
      .ipv4(127, 0, 0, 1), .ipv4(10, 1, 2, 3), .ipv4(172, 16, 0, 1), .ipv4(172, 31, 255, 255),
      .ipv4(192, 168, 1, 1), .ipv4(169, 254, 169, 254), .ipv4(100, 64, 0, 1), .ipv4(0, 0, 0, 0),
      .ipv4(224, 0, 0, 1), .ipv4(255, 255, 255, 255),
      .ipv6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
      .ipv6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]),
      .ipv6([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1]),
      .ipv6([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]),
      .ipv6([0xFD, 0x12] + [UInt8](repeating: 0, count: 14)),
    ]
    for address in privates { #expect(address != .publicAddress) }
    #expect(AddressClass.ipv4(93, 184, 216, 34) == .publicAddress)
    #expect(AddressClass.ipv4(172, 32, 0, 1) == .publicAddress)
    #expect(AddressClass.ipv6([0x26, 0x06, 0x28, 0] + [UInt8](repeating: 0, count: 11) + [1]) == .publicAddress)
  }

  @Test("the policy refuses loopback and the metadata address after resolving, and honours its allow-list")
  func policy() async {
    let closed = SourcePolicy()
    #expect(await closed.check(URL(string: "http://127.0.0.1:8080/a.jpg")!)?.status == 403)
    #expect(await closed.check(URL(string: "http://169.254.169.254/latest/meta-data")!)?.status == 403)
    #expect(await closed.check(URL(string: "http://localhost/a.jpg")!)?.status == 403)
    #expect(await closed.check(URL(string: "http://2130706433/a.jpg")!)?.status == 403)  // 127.0.0.1 as a number
    #expect(await closed.check(URL(string: "http://[::1]/a.jpg")!)?.status == 403)
    #expect(await closed.check(URL(string: "ftp://example.com/a.jpg")!)?.status == 400)
    let open = SourcePolicy(allowsPrivateAddresses: true)
    #expect(await open.check(URL(string: "http://127.0.0.1:8080/a.jpg")!) == nil)
    let listed = SourcePolicy(allowedPrefixes: ["http://127.0.0.1:8080/images/"])
    #expect(await listed.check(URL(string: "http://127.0.0.1:8080/images/a.jpg")!) == nil)
    #expect(await listed.check(URL(string: "http://127.0.0.1:8080/private/a.jpg")!)?.status == 403)
  }

  @Test("at the server: a loopback source is 403 unless allowed; a redirect to a private address is 403")
  func server() async throws {
    let origin = try FaultOrigin()
    let png = try Data(contentsOf: TestPaths.photo("birds"))
    origin.route("/a.png", .ok(png))
    origin.route("/to-metadata", .redirect(status: 302, location: "http://169.254.169.254/latest/meta-data"))
    let other = try FaultOrigin()
    other.route("/b.png", .ok(png))
    origin.route("/to-other", .redirect(status: 302, location: "http://127.0.0.1:\(other.port)/b.png"))
    origin.route("/to-self", .redirect(status: 302, location: "/a.png"))
    let base = "http://127.0.0.1:\(origin.port)"
    let options = ServeHarness.fit(20, 20)

    let closed = try ServeHarness(ServeHarness.configuration(allowingPrivate: false))
    let refused = try await closed.get(ServeHarness.path(options, URL(string: base + "/a.png")!))
    #expect(refused.status == 403)
    #expect(String(decoding: refused.body, as: UTF8.self).contains("loopback"))
    #expect(origin.requests("/a.png").isEmpty)
    await closed.stop()

    var configuration = ServeHarness.configuration(allowingPrivate: false)
    configuration.sources.allowedPrefixes = [base + "/"]
    let listed = try ServeHarness(configuration)
    #expect(try await listed.get(ServeHarness.path(options, URL(string: base + "/a.png")!)).status == 200)
    #expect(try await listed.get(ServeHarness.path(options, URL(string: base + "/to-self")!)).status == 200)
    #expect(try await listed.get(ServeHarness.path(options, URL(string: base + "/to-metadata")!)).status == 403)
    #expect(try await listed.get(ServeHarness.path(options, URL(string: base + "/to-other")!)).status == 403)
    #expect(other.requests("/b.png").isEmpty)
    let outside = URL(string: "http://127.0.0.1:\(other.port)/b.png")!
    #expect(try await listed.get(ServeHarness.path(options, outside)).status == 403)
    await listed.stop()
  }
}
