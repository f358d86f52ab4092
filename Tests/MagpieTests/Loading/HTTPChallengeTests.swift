import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// HTTP challenges (issue 35, item 5): a `401` asks the loader's
/// challenge handler once, and libcurl answers the scheme the server
/// picks with the login it gave: Basic at an nginx `auth_basic` location,
/// Digest at an nginx location scripted in njs (Debian's nginx has no
/// Digest module) and at the fault-injecting origin.
@Suite(.serialized, .timeLimit(Sanitizer.timeLimit(minutes: 2))) struct HTTPChallengeTests {
  let directory: TemporaryDirectory
  let root: URL
  let photo: Data

  init() throws {
    directory = try TemporaryDirectory()
    root = try directory.servingSamples(["cutout-01.png"])
    try directory.copy("cutout-01.png", in: root, to: "basic/a.png")
    photo = try Data(contentsOf: root.appendingPathComponent("cutout-01.png"))
  }

  /// A downloader whose loader asks `handler`, recording each challenge.
  private func downloader(
    _ asked: Locked<[HTTPAuthenticationChallenge]>, answer: HTTPLogin?
  ) -> ImageDownloader {
    var configuration = DataLoaderConfiguration()
    configuration.challengeHandler = { challenge in
      asked.withLock { $0.append(challenge) }
      return answer
    }
    return ImageDownloader(
      configuration: .init(
        dataLoader: CurlDataLoader(configuration: configuration), retryPolicy: .never, rateLimit: nil))
  }

  @Test func aBasicLocationAtNginxLoadsWithTheLoginTheHandlerGives() async throws {
    let certificates = TestCertificates(folder: directory.url)
    try certificates.shell("printf 'reader:%s\\n' \"$(openssl passwd -apr1 s3cret)\" > htpasswd")
    let config = """
      location ^~ /basic/ { auth_basic "magpie photos"; auth_basic_user_file \(directory.path("htpasswd")); \
      try_files $uri =404; }
      """
    let origin = try NginxOrigin(serving: root, extraConfig: config)
    defer { origin.stop() }
    let url = origin.url("/basic/a.png")
    let asked = Locked<[HTTPAuthenticationChallenge]>([])
    let downloader = downloader(asked, answer: HTTPLogin(user: "reader", password: "s3cret"))
    #expect(try await downloader.data(for: URLRequest(url: url)).data == photo)
    #expect(asked.value.map(\.schemes) == [["basic"]])
    #expect(asked.value.first?.realm == "magpie photos")
    #expect(asked.value.first?.origin == "127.0.0.1:\(origin.port)")
    // The login is kept for the host: the next load does not ask.
    #expect(try await downloader.data(for: URLRequest(url: url)).data == photo)
    #expect(asked.value.count == 1)

    // A wrong login is asked for once, then the 401 stands; so does no login.
    let wrong = Locked<[HTTPAuthenticationChallenge]>([])
    await #expect(throws: MagpieError.self) {
      _ = try await self.downloader(wrong, answer: HTTPLogin(user: "reader", password: "nope"))
        .data(for: URLRequest(url: url))
    }
    #expect(wrong.value.count == 1)
    do {
      _ = try await self.downloader(Locked([]), answer: nil).data(for: URLRequest(url: url))
      Issue.record("a 401 with no login loaded")
    } catch {
      #expect(error.statusCode == 401)
    }
  }

  @Test func aDigestChallengeIsAnsweredByLibcurl() async throws {
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/digest.png", .digest(realm: "vault", user: "reader", password: "s3cret", body: photo))
    let asked = Locked<[HTTPAuthenticationChallenge]>([])
    let downloader = downloader(asked, answer: HTTPLogin(user: "reader", password: "s3cret"))
    #expect(try await downloader.data(for: URLRequest(url: origin.url("/digest.png"))).data == photo)
    #expect(asked.value.map(\.schemes) == [["digest"]])
    #expect(asked.value.first?.realm == "vault")
    let last = try #require(origin.requests("/digest.png").last)
    #expect(last.headers["authorization"]?.hasPrefix("Digest ") == true)
    #expect(last.headers["authorization"]?.contains("s3cret") == false)
    // The password never travels: only the Digest response does.
    #expect(origin.requests("/digest.png").allSatisfy { $0.headers["authorization"]?.contains("s3cret") != true })
  }

  /// RFC 7616 Digest (MD5, `qop=auth`) checked by an njs handler; a good
  /// answer is served from the internal `/vault/` location.
  private static let digestScript = """
    var crypto = require('crypto');
    function md5(text) { return crypto.createHash('md5').update(text).digest('hex'); }
    var realm = 'vault', user = 'reader', password = 's3cret', nonce = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    function fields(header) {
      var out = {};
      if (!header || header.slice(0, 7).toLowerCase() != 'digest ') { return out; }
      header.slice(7).split(',').forEach(function (part) {
        var at = part.indexOf('=');
        if (at > 0) { out[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim().replace(/^"|"$/g, ''); }
      });
      return out;
    }
    function check(r) {
      var f = fields(r.headersIn['Authorization']);
      var ha1 = md5(user + ':' + realm + ':' + password);
      var ha2 = md5(r.method + ':' + f.uri);
      var expected = md5(ha1 + ':' + nonce + ':' + f.nc + ':' + f.cnonce + ':' + f.qop + ':' + ha2);
      if (f.username === user && f.nonce === nonce && f.uri === r.uri && f.response === expected) {
        r.internalRedirect('/vault/' + r.uri.slice('/digest/'.length));
        return;
      }
      r.headersOut['WWW-Authenticate'] = 'Digest realm="' + realm + '", qop="auth", nonce="' + nonce + '", algorithm=MD5';
      r.return(401, 'unauthorized');
    }
    export default { check };
    """

  @Test func aDigestLocationAtNginxLoadsWithTheLoginTheHandlerGives() async throws {
    try directory.copy("cutout-01.png", in: root, to: "vault/a.png")
    let script = directory.url.appendingPathComponent("digest.js")
    try Data(Self.digestScript.utf8).write(to: script)
    let config = """
      js_import digest from \(script.path);
      location ^~ /digest/ { js_content digest.check; }
      location ^~ /vault/ { internal; try_files $uri =404; }
      """
    let origin = try NginxOrigin(serving: root, extraConfig: config, modules: ["ngx_http_js_module"])
    defer { origin.stop() }
    let url = origin.url("/digest/a.png")
    let asked = Locked<[HTTPAuthenticationChallenge]>([])
    let downloader = downloader(asked, answer: HTTPLogin(user: "reader", password: "s3cret"))
    #expect(try await downloader.data(for: URLRequest(url: url)).data == photo)
    #expect(asked.value.map(\.schemes) == [["digest"]])
    #expect(asked.value.first?.realm == "vault")
    // A wrong password: asked once, then the 401 stands.
    do {
      _ = try await self.downloader(Locked([]), answer: HTTPLogin(user: "reader", password: "nope"))
        .data(for: URLRequest(url: url))
      Issue.record("a wrong Digest login loaded")
    } catch {
      #expect(error.statusCode == 401)
    }
  }

  @Test func theURLSessionLoaderRefusesAChallengeHandler() async throws {
    var configuration = DataLoaderConfiguration()
    configuration.challengeHandler = { _ in nil }
    #expect(URLSessionDataLoader.refusal(for: configuration)?.reason.contains("challengeHandler") == true)
  }
}
