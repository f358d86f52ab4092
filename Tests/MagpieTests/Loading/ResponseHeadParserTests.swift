import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Response head parsing")
struct ResponseHeadParserTests {
  let url = URL(string: "https://images.example/photo.png")!

  func parser(limit: Int = 64 << 10) -> ResponseHeadParser {
    ResponseHeadParser(url: url, maximumHeaderSize: limit)
  }

  @Test("Status, version, the checked fields and the raw lines, ignoring case and padding")
  func fields() throws {
    var head = parser()
    let text =
      "HTTP/1.1 200 OK\r\ncontent-LENGTH:  1234 \r\nContent-Type: image/png\r\nContent-Encoding: gzip\r\n"
      + "Retry-After: 5\r\nX-Other: a:b\r\n\r\n"
    #expect(try head.feed(Data(text.utf8)) == .ended)
    #expect(head.statusCode == 200)
    #expect(head.httpVersion == "HTTP/1.1")
    #expect(head.head.contentLength == "1234")
    #expect(head.head.contentType == "image/png")
    #expect(head.head.contentEncoding == "gzip")
    #expect(head.head.retryAfter == "5")
    #expect(head.head.url == url)
    #expect(head.location == nil)
    let lines = String(decoding: head.lines, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 5)
    #expect(lines.last == "X-Other: a:b")
  }

  @Test("A 1xx head is skipped and the real one replaces it")
  func informational() throws {
    var head = parser()
    let text = "HTTP/1.1 100 Continue\r\nX-Early: 1\r\n\r\nHTTP/2 301\r\nLocation: /next\r\n\r\n"
    #expect(try head.feed(Data(text.utf8)) == .ended)
    #expect(head.statusCode == 301)
    #expect(head.httpVersion == "HTTP/2")
    #expect(head.location == "/next")
    #expect(String(decoding: head.lines, as: UTF8.self) == "Location: /next")
  }

  @Test("A head not yet ended needs more, and bytes after its end are not read")
  func partial() throws {
    var head = parser()
    #expect(try head.feed(Data("HTTP/1.1 404 Not Found\r\nContent-Type: text".utf8)) == .needsMore)
    #expect(head.statusCode == 404)
    var ended = parser()
    #expect(try ended.feed(Data("HTTP/1.1 200 OK\r\n\r\nContent-Type: image/gif\r\n".utf8)) == .ended)
    #expect(ended.head.contentType == nil)
  }

  @Test("Garbage lines and odd status lines give a head, never a crash")
  func garbage() throws {
    var head = parser()
    #expect(try head.feed(Data("no status\r\n:\r\nHTTP/\r\nHTTP/1.1 99999999999999 x\r\n\r\n".utf8)) == .ended)
    #expect(head.statusCode < 10_000)
  }

  @Test("A head over the limit fails, naming the limit and its value; exactly at it passes")
  func limit() throws {
    let line = "X-Filler: " + String(repeating: "a", count: 88) + "\r\n"  // 100 bytes
    // 17 bytes of status line, 900 of fields, 2 of the empty line.
    var atLimit = parser(limit: 919)
    #expect(try atLimit.feed(Data(("HTTP/1.1 200 OK\r\n" + String(repeating: line, count: 9) + "\r\n").utf8)) == .ended)
    #expect(atLimit.byteCount == 919)
    var over = parser(limit: 1000)
    #expect {
      try over.feed(Data(("HTTP/1.1 200 OK\r\n" + String(repeating: line, count: 10) + "\r\n").utf8))
    } throws: { error in
      let error = error as? MagpieError
      return error?.code == .invalidResponse && error?.reason.contains("1000-byte limit (maximumHeaderSize)") == true
    }
    // 1xx heads count too: an endless stream of them cannot get past it.
    var informational = parser(limit: 1000)
    #expect(throws: MagpieError.self) {
      for _ in 0..<100 { _ = try informational.feed(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
    }
  }

  @Test("A head that arrived whole is measured the same way")
  func wholeHead() throws {
    let small = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: ["A": "b"]))
    try ResponseHeadParser.check(small, maximumHeaderSize: 1000)
    let big = try #require(
      HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: nil, headerFields: ["A": String(repeating: "b", count: 2000)]))
    #expect(throws: MagpieError.self) { try ResponseHeadParser.check(big, maximumHeaderSize: 1000) }
  }
}
