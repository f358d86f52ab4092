import Foundation
import Magpie
import MagpieServer
import Testing

/// `magpie serve` over HTTP against a real origin (nginx): signatures,
/// negotiation, caching headers, `/health` and `/metrics`.
@Suite("ImageService over HTTP", .serialized)
struct ServeHTTPTests {
  private static func origin() throws -> (NginxOrigin, TemporaryDirectory) {
    let root = try TemporaryDirectory()
    for name in ["birds.png", "garden.png"] {
      try FileManager.default.copyItem(
        at: TestPaths.photo(String(name.dropLast(4))), to: root.url.appendingPathComponent(name))
    }
    let photo = try CoderRegistry.shared.decode(Data(contentsOf: TestPaths.photo("door")))
    try CoderRegistry.shared.encode(photo, as: .jpeg).write(to: root.url.appendingPathComponent("door.jpg"))
    return (try NginxOrigin(serving: root.url), root)
  }

  @Test("a signed URL is served; a tampered path, a tampered or missing signature and unsafe are 403")
  func signatures() async throws {
    let (origin, root) = try Self.origin()
    let harness = try ServeHarness(ServeHarness.configuration())
    let good = ServeHarness.path(ServeHarness.fit(64, 64), origin.url("/door.jpg"))
    #expect(try await harness.get(good).status == 200)
    let tamperedPath = good.replacingOccurrences(of: "64", with: "65")
    #expect(try await harness.get(tamperedPath).status == 403)
    var signature = Array(good.dropFirst().prefix { $0 != "/" })
    signature[0] = signature[0] == "A" ? "B" : "A"
    let tamperedSignature = "/" + String(signature) + good.drop { $0 != "/" }.dropFirst().drop { $0 != "/" }
    #expect(try await harness.get(tamperedSignature).status == 403)
    let unsigned = String(good.dropFirst().drop { $0 != "/" })
    #expect(try await harness.get(unsigned).status == 403)
    let unsafe = URLSigner.unsafePath(options: ServeHarness.fit(64, 64), source: origin.url("/door.jpg"))
    #expect(try await harness.get(unsafe).status == 403)
    await harness.stop()
    _ = root
  }

  @Test("Accept picks AVIF, WebP or the source's format; Vary: Accept; f: overrides")
  func negotiation() async throws {
    let (origin, root) = try Self.origin()
    let harness = try ServeHarness(ServeHarness.configuration())
    let path = ServeHarness.path(ServeHarness.fit(80, 80), origin.url("/door.jpg"))
    let avif = try await harness.get(path, headers: ["Accept": "image/avif,image/webp,*/*"])
    let expectedBest: ImageFormat = CoderRegistry.shared.encoder(for: .avif) != nil ? .avif : .webp
    #expect(avif.header("Content-Type") == expectedBest.mimeType)
    #expect(ImageFormat.sniff(avif.body) == expectedBest)
    #expect(avif.header("Vary") == "Accept")
    let webp = try await harness.get(path, headers: ["Accept": "image/webp"])
    #expect(ImageFormat.sniff(webp.body) == .webp)
    let any = try await harness.get(path, headers: ["Accept": "*/*"])
    #expect(ImageFormat.sniff(any.body) == .jpeg)
    let png = try await harness.get(
      ServeHarness.path(ServeHarness.fit(80, 80), origin.url("/birds.png")), headers: ["Accept": "*/*"])
    #expect(ImageFormat.sniff(png.body) == .png)
    let fixed = try await harness.get(
      ServeHarness.path(ServeHarness.fit(80, 80), origin.url("/door.jpg"), format: .png),
      headers: ["Accept": "image/webp"])
    #expect(ImageFormat.sniff(fixed.body) == .png)
    #expect(fixed.header("Vary") == nil)
    let image = try CoderRegistry.shared.decode(webp.body)
    #expect(max(image.pixelSize.width, image.pixelSize.height) == 80)
    await harness.stop()
    _ = root
  }

  @Test("ETag and If-None-Match give 304; HEAD has no body; Range is answered whole with Accept-Ranges: none")
  func caching() async throws {
    let (origin, root) = try Self.origin()
    var configuration = ServeHarness.configuration()
    configuration.cacheTTL = 3600
    let harness = try ServeHarness(configuration)
    let path = ServeHarness.path(ServeHarness.fit(50, 50), origin.url("/garden.png"))
    let first = try await harness.get(path)
    let etag = try #require(first.header("ETag"))
    #expect(first.header("Cache-Control") == "public, max-age=3600")
    #expect(first.header("Content-Length") == "\(first.body.count)")
    let again = try await harness.get(path, headers: ["If-None-Match": "\"other\", \(etag)"])
    #expect(again.status == 304)
    #expect(again.body.isEmpty)
    let changed = try await harness.get(path, headers: ["If-None-Match": "\"other\""])
    #expect(changed.status == 200)
    let head = try await harness.get(path, method: "HEAD")
    #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == etag)
    let ranged = try await harness.get(path, headers: ["Range": "bytes=0-9"])
    #expect(ranged.status == 200 && ranged.body == first.body && ranged.header("Accept-Ranges") == "none")
    #expect(try origin.requestCount("/garden.png") == 1)  // every later answer came from the result cache
    await harness.stop()
    _ = root
  }

  @Test("/health answers ok; /metrics counts requests, cache hits and bytes in Prometheus' format")
  func healthAndMetrics() async throws {
    let (origin, root) = try Self.origin()
    let harness = try ServeHarness(ServeHarness.configuration())
    #expect(String(decoding: try await harness.get("/health").body, as: UTF8.self) == "ok\n")
    let path = ServeHarness.path(ServeHarness.fit(40, 40), origin.url("/birds.png"))
    _ = try await harness.get(path, headers: ["Accept": "*/*"])
    _ = try await harness.get(path, headers: ["Accept": "*/*"])
    _ = try await harness.get("/bad/path")
    let text = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
    #expect(text.contains("magpie_serve_requests_total{status=\"200\",format=\"png\"} 2"))
    #expect(text.contains("magpie_serve_requests_total{status=\"403\",format=\"-\"} 1"))
    #expect(text.contains("magpie_serve_cache_hits_total{tier=\"memory\"} 1"))
    #expect(text.contains("magpie_serve_cache_misses_total 1"))
    #expect(text.contains("magpie_serve_stage_seconds_count{stage=\"encode\"} 1"))
    #expect(text.contains("# TYPE magpie_serve_in_flight gauge"))
    let bytesIn = text.split(separator: "\n").first { $0.hasPrefix("magpie_serve_source_bytes_total ") }
    #expect(bytesIn == "magpie_serve_source_bytes_total \(try Data(contentsOf: TestPaths.photo("birds")).count)")
    #expect(try await harness.get("/health", method: "POST").status == 405)
    await harness.stop()
    _ = root
  }

  @Test("a transparent source served as JPEG is flattened onto white, or onto bg: when given")
  func jpegFlattening() async throws {
    var pixels = PixelBuffer(width: 8, height: 8)
    pixels.fill(SIMD4(0, 0, 0, 0))  // fully transparent, colour values black
    let png = try CoderRegistry.shared.encode(Image(pixels: pixels), as: .png)
    let origin = try FaultOrigin()
    defer { origin.stop() }
    origin.route("/clear.png", .ok(png))
    let harness = try ServeHarness(ServeHarness.configuration())
    let source = URL(string: "http://127.0.0.1:\(origin.port)/clear.png")!
    let white = try await harness.get(ServeHarness.path(ServeHarness.fit(8, 8), source, format: .jpeg))
    let whitePixel = try CoderRegistry.shared.decode(white.body).pixels[4, 4]
    #expect(whitePixel[0] >= 250 && whitePixel[1] >= 250 && whitePixel[2] >= 250, "\(whitePixel)")
    var red = ServeHarness.fit(8, 8)
    red.background = RGBAColor(red: 255, green: 0, blue: 0)
    let redAnswer = try await harness.get(ServeHarness.path(red, source, format: .jpeg))
    let redPixel = try CoderRegistry.shared.decode(redAnswer.body).pixels[4, 4]
    #expect(redPixel[0] >= 240 && redPixel[1] <= 15 && redPixel[2] <= 15, "\(redPixel)")
    await harness.stop()
  }
}
