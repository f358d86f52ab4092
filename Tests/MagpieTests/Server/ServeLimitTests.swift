import Foundation
import Magpie
import MagpieServer
import Testing

/// Limits an operator relies on: source bytes (413), frames (422), the
/// processing queue (503 with Retry-After), the request timeout (504), and
/// animations kept animated.
@Suite("Serve limits")
struct ServeLimitTests {
  @Test("a source over the byte limit is 413, announced or not; one under it is served")
  func sourceBytes() async throws {
    let origin = try FaultOrigin()
    let png = try Data(contentsOf: TestPaths.photo("birds"))
    origin.route("/big.png", .ok(png))
    origin.route("/big-chunked.png", .chunked(png, pieces: 8, trailer: false))
    var configuration = ServeHarness.configuration()
    configuration.maximumSourceBytes = png.count - 1
    let harness = try ServeHarness(configuration)
    for name in ["/big.png", "/big-chunked.png"] {
      let answer = try await harness.get(
        ServeHarness.path(ServeHarness.fit(10, 10), URL(string: "http://127.0.0.1:\(origin.port)\(name)")!))
      #expect(answer.status == 413)
      #expect(String(decoding: answer.body, as: UTF8.self).contains("\(png.count - 1)-byte limit"))
    }
    await harness.stop()
  }

  @Test("an animation with more frames than allowed is 422; within the limit it stays animated (GIF to WebP)")
  func frames() async throws {
    let origin = try FaultOrigin()
    let gif = try TestPaths.fixture("gif/pillow_anim.gif")
    origin.route("/anim.gif", .ok(gif, contentType: "image/gif"))
    let source = URL(string: "http://127.0.0.1:\(origin.port)/anim.gif")!
    var configuration = ServeHarness.configuration()
    configuration.maximumFrames = 5
    let strict = try ServeHarness(configuration)
    let refused = try await strict.get(ServeHarness.path(ServeHarness.fit(12, 12), source))
    #expect(refused.status == 422)
    await strict.stop()
    let harness = try ServeHarness(ServeHarness.configuration())
    let webp = try await harness.get(
      ServeHarness.path(ServeHarness.fit(12, 12), source), headers: ["Accept": "image/webp"])
    let image = try CoderRegistry.shared.decode(webp.body)
    #expect(ImageFormat.sniff(webp.body) == .webp)
    #expect(image.frames.count == 6)
    #expect(image.pixelSize == PixelSize(width: 12, height: 10))
    let gifBack = try await harness.get(ServeHarness.path(ServeHarness.fit(12, 12), source), headers: ["Accept": "*/*"])
    #expect(ImageFormat.sniff(gifBack.body) == .gif)
    #expect(try CoderRegistry.shared.decode(gifBack.body).frames.count == 6)
    await harness.stop()
  }

  @Test("with every slot busy and no room to wait, a request gets 503 and Retry-After; the busy one times out with 504")
  func queueFull() async throws {
    let origin = try FaultOrigin()
    origin.route("/stall.png", .stall)
    var configuration = ServeHarness.configuration()
    configuration.concurrency = 1
    configuration.queueCapacity = 0
    // Long enough that the second request always finds the slot taken,
    // also under a sanitizer (TSan once took over 2 s to send it).
    configuration.requestTimeout = .seconds(5 * Sanitizer.slowdown)
    let harness = try ServeHarness(configuration)
    let base = "http://127.0.0.1:\(origin.port)"
    let busy = Task {
      try await harness.get(ServeHarness.path(ServeHarness.fit(10, 10), URL(string: base + "/stall.png")!))
    }
    #expect(await origin.waitForRequests("/stall.png", limit: .seconds(60 * Sanitizer.slowdown)))
    let refused = try await harness.get(ServeHarness.path(ServeHarness.fit(10, 10), URL(string: base + "/other.png")!))
    #expect(refused.status == 503)
    #expect(refused.header("Retry-After") == "1")
    #expect(try await busy.value.status == 504)
    // The download was cancelled, not left running.
    #expect(await origin.waitForClientClose("/stall.png", limit: .seconds(60 * Sanitizer.slowdown)))
    await harness.stop()
  }
}
