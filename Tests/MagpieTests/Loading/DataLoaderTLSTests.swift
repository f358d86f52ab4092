import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// TLS and cookies (issue 35, item 5) against a local HTTPS nginx: a
/// trusted CA file, a pinned public key that matches and one that does
/// not, a location that only answers clients with a certificate from the
/// test's own CA, the lowest TLS version, and a cookie jar in memory and
/// in a file. The certificates are made by the `openssl` tool.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct DataLoaderTLSTests {
  let directory: TemporaryDirectory
  let root: URL

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
    try directory.copy("cutout-01.png", in: root, to: "clientonly/a.png")
  }

  private var certificates: TestCertificates { TestCertificates(folder: directory.url) }

  private func load(_ url: URL, _ configuration: DataLoaderConfiguration, kind: LoaderKind = .curl) async -> LoadOutcome
  {
    await LoadOutcome.load(url, with: kind.make(configuration))
  }

  private var photo: Data { get throws { try Data(contentsOf: root.appendingPathComponent("cutout-01.png")) } }

  @Test func aTrustedCAFileAndAMatchingPinPassAndAnotherPinFails() async throws {
    let origin = try NginxOrigin(serving: root, tls: true)
    defer { origin.stop() }
    let certificate = origin.workdir.appendingPathComponent("cert.pem")
    let url = origin.url("/cutout-01.png")
    #expect(await load(url, DataLoaderConfiguration()).error?.code == .network)
    var configuration = DataLoaderConfiguration()
    configuration.tls.trustedCertificates = certificate
    #expect(try await load(url, configuration).body == photo)
    configuration.tls.pinnedPublicKeys = [try certificates.pin(of: certificate)]
    #expect(try await load(url, configuration).body == photo)
    configuration.tls.pinnedPublicKeys = ["sha256//" + (try certificates.pin(of: try certificates.other()))]
    let mismatch = await load(url, configuration)
    #expect(mismatch.error?.code == .network)
    #expect(mismatch.error?.reason.contains("not one of the pinned keys") == true)
    #expect(mismatch.body.isEmpty)
  }

  @Test func aClientCertificateOnlyLocationLoadsWithTheCertificateAndFailsWithout() async throws {
    try certificates.makeClient()
    let origin = try NginxOrigin(serving: root, tls: true, extraConfig: certificates.clientOnlyConfig)
    defer { origin.stop() }
    let url = origin.url("/clientonly/a.png")
    var configuration = DataLoaderConfiguration()
    configuration.tls.trustedCertificates = origin.workdir.appendingPathComponent("cert.pem")
    let without = await load(url, configuration)
    #expect(without.error?.statusCode == 403)
    configuration.tls.clientCertificate = URL(fileURLWithPath: directory.path("client.pem"))
    configuration.tls.clientKey = URL(fileURLWithPath: directory.path("client.key"))
    #expect(try await load(url, configuration).body == photo)
    // A key that does not open is a clear error.
    configuration.tls.clientKey = URL(fileURLWithPath: directory.path("missing.key"))
    let broken = await load(url, configuration)
    #expect(broken.error?.reason.contains("client certificate or key") == true)
  }

  @Test func theLowestTLSVersionIsHeld() async throws {
    let origin = try NginxOrigin(serving: root, tls: true, extraConfig: "ssl_protocols TLSv1.2;")
    defer { origin.stop() }
    var configuration = DataLoaderConfiguration()
    configuration.tls.trustedCertificates = origin.workdir.appendingPathComponent("cert.pem")
    configuration.tls.minimumVersion = .tls12
    #expect(try await load(origin.url("/cutout-01.png"), configuration).body == photo)
    configuration.tls.minimumVersion = .tls13
    #expect(await load(origin.url("/cutout-01.png"), configuration).error?.code == .network)
  }

  @Test func aCookieSetByOneResponseIsSentOnTheNextWithAJarAndNeverWithout() async throws {
    let config = """
      location = /login.png { add_header Set-Cookie "session=abc123; Path=/"; try_files /cutout-01.png =404; }
      location = /private.png { if ($cookie_session != "abc123") { return 403; } try_files /cutout-01.png =404; }
      """
    let origin = try NginxOrigin(serving: root, extraConfig: config)
    defer { origin.stop() }
    // Without a jar (the default) the cookie is dropped.
    let plain = CurlDataLoader()
    _ = try await plain.data(for: URLRequest(url: origin.url("/login.png")))
    #expect(await LoadOutcome.load(origin.url("/private.png"), with: plain).error?.statusCode == 403)
    // In memory, for the loader's life.
    var configuration = DataLoaderConfiguration()
    configuration.cookieJar = .memory
    let remembering = CurlDataLoader(configuration: configuration)
    #expect(await LoadOutcome.load(origin.url("/private.png"), with: remembering).error?.statusCode == 403)
    _ = try await remembering.data(for: URLRequest(url: origin.url("/login.png")))
    let remembered = await LoadOutcome.load(origin.url("/private.png"), with: remembering)
    #expect(remembered.error == nil)
    #expect(remembered.body == (try photo))
    // In a file, for the next loader (the next process) too.
    let jar = directory.url.appendingPathComponent("cookies.txt")
    configuration.cookieJar = .file(jar)
    _ = try await CurlDataLoader(configuration: configuration).data(for: URLRequest(url: origin.url("/login.png")))
    #expect(try String(contentsOf: jar, encoding: .utf8).contains("abc123"))
    let next = await LoadOutcome.load(origin.url("/private.png"), with: CurlDataLoader(configuration: configuration))
    #expect(next.error == nil)
    #expect(next.body == (try photo))
  }

  @Test func theURLSessionLoaderRefusesWhatItCannotHonour() async throws {
    let origin = try NginxOrigin(serving: root)
    defer { origin.stop() }
    var configuration = DataLoaderConfiguration()
    configuration.tls.pinnedPublicKeys = ["sha256//AAAA"]
    configuration.cookieJar = .memory
    let refused = await load(origin.url("/cutout-01.png"), configuration, kind: .urlSession)
    #expect(refused.error?.code == .invalidArgument)
    #expect(refused.error?.reason.contains("tls.pinnedPublicKeys, cookieJar") == true)
    #expect(try origin.requestCount("/cutout-01.png") == 0)
    // Without them it loads. The idle timeout scales with a sanitizer's
    // slowdown: under AddressSanitizer, loaded by the rest of the suite,
    // URLSession once sent nothing for the default 15 s.
    let plain = DataLoaderConfiguration(timeout: .seconds(15 * Sanitizer.slowdown))
    #expect(try await load(origin.url("/cutout-01.png"), plain, kind: .urlSession).body == photo)
  }
}
