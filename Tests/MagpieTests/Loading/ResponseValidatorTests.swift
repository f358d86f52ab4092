import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Response validation")
struct ResponseValidatorTests {
  let url = URL(string: "https://images.example/photo.jpg")!

  func validator(
    _ configure: (inout DataLoaderConfiguration) -> Void = { _ in }, request: URLRequest? = nil
  ) -> ResponseValidator {
    var configuration = DataLoaderConfiguration()
    configure(&configuration)
    return ResponseValidator(request: request ?? URLRequest(url: url), configuration: configuration)
  }

  func head(_ status: Int = 200, length: Int? = nil, type: String? = "image/jpeg", encoding: String? = nil)
    -> ResponseHead
  {
    ResponseHead(
      url: url, statusCode: status, contentLength: length.map(String.init), contentType: type,
      contentEncoding: encoding)
  }

  @Test("The first bytes are held until they sniff as an image, then delivered at once")
  func holdsUntilSniffed() throws {
    var check = validator()
    try check.accept(head(length: 200))
    let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 196)
    #expect(try check.accept(jpeg.prefix(10)) == nil)
    guard case .data(let chunk, let received, let expected)? = try check.accept(jpeg.dropFirst(10).prefix(90)) else {
      Issue.record("expected the held bytes")
      return
    }
    #expect(chunk == jpeg.prefix(100))
    #expect(received == 100)
    #expect(expected == 200)
    guard case .data(let rest, 200, 200)? = try check.accept(jpeg.dropFirst(100)) else {
      Issue.record("expected the rest")
      return
    }
    #expect(rest.count == 100)
    #expect(try check.finish() == nil)
  }

  @Test("A tiny image body is sniffed at its end")
  func tinyBody() throws {
    var check = validator()
    try check.accept(head(length: 8))
    let gif = Data("GIF89a\u{1}\u{0}".utf8)
    #expect(try check.accept(gif) == nil)
    guard case .data(let chunk, 8, 8)? = try check.finish() else {
      Issue.record("expected the body at the end")
      return
    }
    #expect(chunk == gif)
  }

  @Test("Text that is not markup fails as soon as it is sniffed; markup gets the whole window")
  func notAnImage() throws {
    var plain = validator()
    try plain.accept(head(type: "text/plain"))
    #expect(throws: MagpieError.self) { try plain.accept(Data(repeating: UInt8(ascii: "a"), count: 64)) }
    var svg = validator()
    try svg.accept(head(type: "image/svg+xml"))
    let prolog = "<?xml version=\"1.0\"?>\n<!-- " + String(repeating: "c", count: 900) + " -->\n"
    #expect(try svg.accept(Data(prolog.utf8)) == nil)
    #expect(try svg.accept(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) != nil)
  }

  @Test("Statuses: 2xx passes, a 304 only for a conditional request, others carry their code")
  func statuses() throws {
    var ok = validator()
    try ok.accept(head(204))
    var conditionalRequest = URLRequest(url: url)
    conditionalRequest.setValue("\"e\"", forHTTPHeaderField: "If-None-Match")
    var conditional = validator(request: conditionalRequest)
    try conditional.accept(head(304))
    #expect(conditional.isNotModified)
    #expect(try conditional.accept(Data([1, 2, 3])) == nil)
    #expect(try conditional.finish() == nil)
    var plain = validator()
    #expect(throws: MagpieError.self) { try plain.accept(head(304)) }
    var unavailable = validator()
    var retried = ResponseHead(url: url, statusCode: 503, retryAfter: "7")
    do {
      try unavailable.accept(retried)
      Issue.record("a 503 must throw")
    } catch {
      #expect(error.code == .httpStatus)
      #expect(error.statusCode == 503)
      #expect(error.retryAfter == .seconds(7))
    }
    retried.statusCode = 500
    var serverError = validator()
    do {
      try serverError.accept(retried)
    } catch {
      // Retry-After is read for 429 and 503 only.
      #expect(error.retryAfter == nil)
    }
  }

  @Test("The size cap: an announced length over it, or a body growing past it")
  func cap() throws {
    var announced = validator { $0.maximumBodySize = 1000 }
    #expect(throws: MagpieError.self) { try announced.accept(head(length: 1001)) }
    var growing = validator { $0.maximumBodySize = 1000 }
    try growing.accept(head())
    _ = try growing.accept(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 992))
    #expect(throws: MagpieError.self) { try growing.accept(Data([0])) }
  }

  @Test("A body shorter than Content-Length fails")
  func lengths() throws {
    var short = validator()
    try short.accept(head(length: 100))
    _ = try short.accept(Data([0xFF, 0xD8, 0xFF]) + Data(count: 80))
    #expect(throws: MagpieError.self) { try short.finish() }
  }

  @Test("An empty 2xx body is not an image, unless checks are off")
  func empty() throws {
    var strict = validator()
    try strict.accept(head(length: 0))
    #expect(throws: MagpieError.self) { try strict.finish() }
    var relaxed = validator { $0.requiresImageContent = false }
    try relaxed.accept(head(length: 0))
    #expect(try relaxed.finish() == nil)
  }

  @Test("An encoded body is refused at its head, naming the encoding; identity and HEAD pass")
  func encodedBodyRefused() throws {
    for encoding in ["gzip", "deflate", "br"] {
      var check = validator()
      #expect {
        try check.accept(head(length: 100, encoding: encoding))
      } throws: { error in
        (error as? MagpieError)?.code == .invalidResponse
          && (error as? MagpieError)?.reason.contains("Content-Encoding \(encoding)") == true
      }
    }
    var identity = validator()
    try identity.accept(head(length: 100, encoding: "identity"))
    var request = URLRequest(url: url)
    request.httpMethod = "HEAD"
    var headRequest = validator(request: request)
    try headRequest.accept(head(length: 100, encoding: "gzip"))
  }
}
