import Foundation
import Testing

@testable import Magpie

/// `magpie fetch --cacert FILE --cert FILE --key FILE --pin SHA256`
/// against a local HTTPS nginx with a client-certificate-only location.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct FetchTLSCommandTests {
  let directory: TemporaryDirectory
  let certificates: TestCertificates
  let origin: NginxOrigin

  init() throws {
    directory = try TemporaryDirectory()
    let root = try directory.servingSamples(["cutout-01.png"])
    try directory.copy("cutout-01.png", in: root, to: "clientonly/a.png")
    certificates = TestCertificates(folder: directory.url)
    try certificates.makeClient()
    origin = try NginxOrigin(serving: root, tls: true, extraConfig: certificates.clientOnlyConfig)
  }

  private func fetch(_ path: String, _ extra: [String]) async throws -> CLIRunner.Result {
    try await CLIRunner.run(["fetch", origin.url(path).absoluteString, "--no-cache"] + extra)
  }

  @Test func theCACertificateAPinAndAClientCertificateAreEachHonoured() async throws {
    defer { origin.stop() }
    let serverCertificate = origin.workdir.appendingPathComponent("cert.pem")
    let cacert = ["--cacert", serverCertificate.path]
    let untrusted = try await fetch("/cutout-01.png", [])
    #expect(untrusted.status != 0)
    #expect(untrusted.stderr.contains("TLS"))
    await #expect(try fetch("/cutout-01.png", cacert).status == 0)

    let pinned = try await fetch("/cutout-01.png", cacert + ["--pin", try certificates.pin(of: serverCertificate)])
    #expect(pinned.status == 0, "\(pinned.stderr)")
    let wrongPin = try await fetch(
      "/cutout-01.png", cacert + ["--pin", "sha256//" + (try certificates.pin(of: try certificates.other()))])
    #expect(wrongPin.status != 0)
    #expect(wrongPin.stderr.contains("not one of the pinned keys"), "\(wrongPin.stderr)")

    let anonymous = try await fetch("/clientonly/a.png", cacert)
    #expect(anonymous.status != 0)
    #expect(anonymous.stderr.contains("403"))
    let client = try await fetch(
      "/clientonly/a.png", cacert + ["--cert", directory.path("client.pem"), "--key", directory.path("client.key")])
    #expect(client.status == 0, "\(client.stderr)")
  }
}
