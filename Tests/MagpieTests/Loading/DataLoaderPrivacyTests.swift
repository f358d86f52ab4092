import Foundation
import Magpie
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Error messages name the URL without its password or query, on every
  /// loader and in the CLI; the CLI's `--verbose` shows it whole.
  @Suite("Privacy")
  struct Privacy {
    static func secretURL(_ origin: FaultOrigin, _ path: String) -> URL {
      URL(string: "http://user:secret@127.0.0.1:\(origin.port)\(path)?token=abc")!
    }

    static func expectRedacted(_ error: MagpieError?, _ comment: Comment) {
      #expect(error != nil, comment)
      for text in [error?.reason ?? "", error.map { "\($0)" } ?? ""] {
        #expect(!text.contains("secret"), comment)
        #expect(!text.contains("token=abc"), comment)
      }
    }

    @Test("A URL's password and query never reach an error", arguments: LoaderKind.allCases)
    func loaderErrors(kind: LoaderKind) async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/a.png", .status(404))
      origin.route("/html.png", .html("<html>no</html>"))
      origin.route("/away.png", .redirect(status: 302, location: "file:///etc/passwd?token=abc"))
      origin.route("/loop.png", .redirect(status: 302, location: "/loop.png?token=abc"))
      let loader = kind.make(quickConfiguration())
      for path in ["/a.png", "/html.png", "/away.png", "/loop.png"] {
        let outcome = await LoadOutcome.load(Self.secretURL(origin, path), with: loader)
        Self.expectRedacted(outcome.error, "\(kind) \(path)")
        #expect(outcome.error?.reason.contains("127.0.0.1") == true || path == "/html.png")
      }
      let closed = try FaultOrigin()
      let gone = Self.secretURL(closed, "/gone.png")
      closed.stop()
      Self.expectRedacted(await LoadOutcome.load(gone, with: loader).error, "\(kind) refused")
    }

    @Test("The CLI's errors hide the password and query unless --verbose")
    func cli() async throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      origin.route("/a.png", .status(404))
      let url = Self.secretURL(origin, "/a.png").absoluteString
      let quiet = try await CLIRunner.run(["fetch", url, "--no-cache"])
      #expect(quiet.status == 1)
      #expect(quiet.stderr.contains("magpie: error: fetch http://127.0.0.1:\(origin.port)/a.png?…"))
      #expect(!quiet.stderr.contains("secret"))
      #expect(!quiet.stderr.contains("token=abc"))
      let verbose = try await CLIRunner.run(["fetch", url, "--no-cache", "--verbose"])
      #expect(verbose.status == 1)
      #expect(verbose.stderr.contains(url))
    }

    @Test("A redacted URL keeps scheme, host, port and path only")
    func redaction() {
      func shown(_ text: String) -> String { URL(string: text)!.redactedDescription }
      #expect(shown("https://user:pw@img.example:8443/a/b.png?sig=1#frag") == "https://img.example:8443/a/b.png?…")
      #expect(shown("http://img.example/a.png") == "http://img.example/a.png")
      #expect(shown("https://img.example") == "https://img.example")
      #expect(shown("file:///tmp/x.png?x") == "file:///tmp/x.png?…")
      #expect(shown("data:image/png;base64,AAAA") == "data:image/png;base64,AAAA")
      let none: URL? = nil
      #expect(none.redactedDescription(or: "the request") == "the request")
    }
  }
}
