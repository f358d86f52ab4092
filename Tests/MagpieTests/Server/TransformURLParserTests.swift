#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  /// The two URL shapes (plain and base64 sources), the source checks and
  /// the signature segment with signing off.
  @Suite struct TransformURLParserTests {
    @Test func plainSourceWithOptionsAndExtension() throws {
      let request = try ServerURLs.parse("/unsafe/rs:fill:300:200/g:sm/plain/http://example.com/a/b.jpg@webp")
      #expect(request.signature == "unsafe")
      #expect(request.source.absoluteString == "http://example.com/a/b.jpg")
      #expect(request.outputExtension == "webp" && request.options.format == .webp)
      #expect(request.options.width == 300 && request.options.gravity == .smart)
      #expect(request.signedPath == "/rs:fill:300:200/g:sm/plain/http://example.com/a/b.jpg@webp")
    }

    @Test func percentEncodedPlainSourceIsDecodedOnce() throws {
      let request = try ServerURLs.parse(
        "/unsafe/w:10/plain/http%3A%2F%2Fexample.com%2Fa%2520b.jpg%3Fv%3D2%40x@png")
      #expect(request.source.absoluteString == "http://example.com/a%20b.jpg?v=2@x")
      #expect(request.options.format == .png && request.outputExtension == "png")
      #expect(request.signedPath == "/w:10/plain/http%3A%2F%2Fexample.com%2Fa%2520b.jpg%3Fv%3D2%40x@png")
    }

    @Test func anAtSignFollowedBySlashBelongsToTheSource() throws {
      let request = try ServerURLs.parse("/unsafe/plain/https://user@example.com/a.jpg")
      #expect(request.source.absoluteString == "https://user@example.com/a.jpg" && request.outputExtension == nil)
      #expect(try ServerURLs.parse("/unsafe/plain/http://example.com/a.jpg@").options.format == nil)
    }

    @Test func base64SourceWithAndWithoutExtensionAndChunks() throws {
      let source = "http://img.example.com/pretty/image.jpg"
      let encoded = "aHR0cDovL2ltZy5leGFtcGxlLmNvbS9wcmV0dHkvaW1hZ2UuanBn"
      let plain = try ServerURLs.parse("/unsafe/rs:fit:300:300/\(encoded)")
      #expect(plain.source.absoluteString == source && plain.outputExtension == nil)
      let withExtension = try ServerURLs.parse("/unsafe/\(encoded).avif")
      #expect(withExtension.source.absoluteString == source && withExtension.options.format == .avif)
      // imgproxy lets long base64 sources be split by `/`.
      let chunked = try ServerURLs.parse("/unsafe/g:no/aHR0cDovL2ltZy5l/eGFtcGxlLmNvbS9w/cmV0dHkvaW1hZ2UuanBn.png")
      #expect(chunked.source.absoluteString == source && chunked.options.format == .png)
      #expect(chunked.options.gravity == .anchor(.north))
      let short = try ServerURLs.parse("/unsafe/aHR0cDovL2EuYi9j.jpg")
      #expect(short.source.absoluteString == "http://a.b/c")
      #expect(try ServerURLs.parse("/unsafe/aHR0cDovL2EuYi9jZA==").source.absoluteString == "http://a.b/cd")
    }

    @Test func aQueryIsDroppedAndCollapsedSlashesRepaired() throws {
      let request = try ServerURLs.parse("/unsafe/w:5/plain/http:/example.com/a.jpg?cache=no")
      #expect(request.source.absoluteString == "http://example.com/a.jpg")
      #expect(request.signedPath == "/w:5/plain/http:/example.com/a.jpg")
    }

    @Test func unsafeCharactersInTheSourceAreEscaped() throws {
      let request = try ServerURLs.parse("/unsafe/plain/http%3A%2F%2Fexample.com%2Fa%20b%C3%A9.jpg")
      #expect(request.source.absoluteString == "http://example.com/a%20b%C3%A9.jpg")
    }

    @Test(arguments: [
      "/unsafe/plain/ftp://example.com/a.jpg", "/unsafe/plain/file:///etc/passwd", "/unsafe/plain/javascript:alert(1)",
      "/unsafe/plain/gopher%3A%2F%2Fexample.com", "/unsafe/plain/example.com/a.jpg", "/unsafe/plain/http:///a.jpg",
      "/unsafe/plain/http%3A%2F%2Fexample.com%2Fa%0D%0AHost%3A%20evil.jpg", "/unsafe/plain/http://example.com/%zz",
      "/unsafe/plain/http%3A%2F%2Fexample.com%2F%FF", "/unsafe/ZmlsZTovLy9ldGMvcGFzc3dk", "/unsafe/!!notbase64",
      "/unsafe/w:1/plain/", "/unsafe/w:1/plain/@png", "/unsafe/w:1", "/unsafe/w:1/",
      "/unsafe/", "/unsafe/plain/http://example.com/a.jpg@bmp", "/unsafe/aHR0cDovL2EuYi9j.tiff", "unsafe/w:1/x",
    ])
    func badSourcesAndShapesAre400(_ path: String) {
      #expect(ServerURLs.refusal(path)?.status == 400, "\(path)")
    }

    /// `/`, `?` and `:` split as bytes even where a combining mark follows
    /// (Swift would read the two as one Character).
    @Test func separatorsSplitAsBytes() throws {
      let request = try ServerURLs.parse("/unsafe/w:1/plain/http://example.com/a.jpg?\u{301}x")
      #expect(request.source.absoluteString == "http://example.com/a.jpg")
      let error = ServerURLs.refusal("/unsafe/\u{301}w:1/plain/\(ServerURLs.source)")
      #expect(error?.status == 400 && error?.reason == "unknown option `\u{301}w`")
      #expect(ServerURLs.optionRefusal("w:\u{301}5")?.reason == "w: `\u{301}5` is not a whole number")
    }

    @Test func refusalsNameWhatIsWrong() {
      #expect(ServerURLs.optionRefusal("quality:101")?.reason == "quality: 101 is outside 0-100")
      #expect(ServerURLs.optionRefusal("crop:10")?.reason == "unknown option `crop`")
      #expect(ServerURLs.refusal("/unsafe/plain/ftp://x/a")?.reason.contains("only http and https") == true)
      let error = ServerURLs.optionRefusal("rot:45")
      #expect(error?.kind == .badRequest && error?.description == "400: rot: 45 is not 0, 90, 180 or 270")
    }

    @Test func withSigningOffOnlyUnsafeIsAccepted() {
      #expect(ServerURLs.refusal("/unsafe/plain/\(ServerURLs.source)") == nil)
      for signature in ["_PQ4ytCQMMp-1w1m_vP6g8Qb-Q7yF9mwghf6PddqxLw", "UNSAFE", "insecure"] {
        #expect(ServerURLs.refusal("/\(signature)/plain/\(ServerURLs.source)")?.status == 403, "\(signature)")
      }
      #expect(ServerURLs.refusal("//w:1/plain/\(ServerURLs.source)")?.status == 403)
      #expect(ServerURLs.refusal("/")?.status == 403)
    }
  }
#endif
