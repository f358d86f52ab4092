import Foundation
import MagpieServer
import Testing

/// `magpie serve` as a process: its usage errors, SIGTERM while a load is
/// in flight, and hostile sources refused within the memory limit.
@Suite("magpie serve")
struct ServeCommandTests {
  @Test("without a key or --unsafe, or with both, it is a usage error (exit 2)")
  func usage() async throws {
    let missing = try await CLIRunner.run(
      ["serve", "--port", "0"], environment: ["MAGPIE_SERVE_KEY": "", "MAGPIE_SERVE_SALT": ""])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--unsafe"))
    let both = try await CLIRunner.run(["serve", "--unsafe", "--key", "00", "--salt", "00"])
    #expect(both.status == 2)
    let badHex = try await CLIRunner.run(["serve", "--key", "xyz", "--salt", "00"])
    #expect(badHex.status == 2)
  }

  @Test("SIGTERM while a load is in flight: that response completes, new connections are refused, exit 0")
  func sigterm() async throws {
    let origin = try FaultOrigin()
    let png = try Data(contentsOf: TestPaths.photo("birds"))
    origin.route("/slow.png", .delayHeaders(.milliseconds(700), png))
    let serve = try ServeProcess(["--unsafe", "--allow-private-sources", "--verbose"])
    let source = URL(string: "http://127.0.0.1:\(origin.port)/slow.png")!
    let path = URLSigner.unsafePath(options: ServeHarness.fit(20, 20), source: source)
    let port = serve.port
    let inFlight = Task { try await HTTPProbe.send(port: port, path: path) }
    #expect(await origin.waitForRequests("/slow.png", limit: .seconds(60 * Sanitizer.slowdown)))
    serve.send(SIGTERM)
    let answer = try await inFlight.value
    #expect(answer.status == 200)
    #expect(await serve.exitStatus() == 0)
    await #expect(throws: (any Error).self) { try await HTTPProbe.send(port: port, path: "/health") }
    #expect(serve.stderr.contains("GET /unsafe/"))  // --verbose: one line per request
  }

  @Test("a declared-huge image and a decompression bomb are 422 at once, without the memory they declare")
  func hostileSources() async throws {
    let root = try TemporaryDirectory()
    // 100,000 × 100,000 declared over one row of data; 20,000 × 20,000
    // zeros that really inflate to 400 MB (a 400 kB file).
    let program = """
      import zlib, struct, sys
      def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
      def png(w, h, rows):
          c = zlib.compressobj(9); row = b'\\0' * (w + 1)
          data = b''.join(c.compress(row) for _ in range(rows)) + c.flush()
          return (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
                  + chunk(b'IDAT', data) + chunk(b'IEND', b''))
      open(sys.argv[1] + '/huge.png', 'wb').write(png(100000, 100000, 1))
      open(sys.argv[1] + '/bomb.png', 'wb').write(png(20000, 20000, 20000))
      """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = ["-c", program, root.url.path]
    try python.run()
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    let origin = try NginxOrigin(serving: root.url)
    let serve = try ServeProcess(["--unsafe", "--allow-private-sources"])
    let before = try serve.peakKilobytes()
    for name in ["/huge.png", "/bomb.png"] {
      let path = URLSigner.unsafePath(options: ServeHarness.fit(100, 100), source: origin.url(name))
      let answer = try await HTTPProbe.send(port: serve.port, path: path)
      #expect(answer.status == 422, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
    }
    let peak = try serve.peakKilobytes()
    if !Sanitizer.distortsMemory {  // shadow memory and quarantine say nothing about ours
      #expect(peak - before < 64 * 1024, "peak RSS grew from \(before) kB to \(peak) kB")
    }
    serve.send(SIGTERM)
    #expect(await serve.exitStatus() == 0)
  }

  @Test("--memory-cache-mb sizes the memory tier; 0 turns it off, so a repeated URL is transformed again")
  func memoryTier() async throws {
    let root = try TemporaryDirectory()
    try FileManager.default.copyItem(at: TestPaths.photo("birds"), to: root.url.appendingPathComponent("birds.png"))
    let origin = try NginxOrigin(serving: root.url)
    let path = URLSigner.unsafePath(options: ServeHarness.fit(20, 20), source: origin.url("/birds.png"))
    for (megabytes, hits) in [("1", 1), ("0", 0)] {
      let serve = try ServeProcess(["--unsafe", "--allow-private-sources", "--memory-cache-mb", megabytes])
      for _ in 0..<2 { #expect(try await HTTPProbe.send(port: serve.port, path: path).status == 200) }
      let metrics = String(decoding: try await HTTPProbe.send(port: serve.port, path: "/metrics").body, as: UTF8.self)
      #expect(
        metrics.contains("magpie_serve_cache_hits_total{tier=\"memory\"} \(hits)")
          || (hits == 0 && !metrics.contains("tier=\"memory\"")), "\(megabytes) MB:\n\(metrics)")
      serve.send(SIGTERM)
      #expect(await serve.exitStatus() == 0)
    }
    let bad = try await CLIRunner.run(["serve", "--unsafe", "--memory-cache-mb", "-1"])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--memory-cache-mb"))
  }

  @Test("--signature-size 8 takes signatures cut to 8 bytes and refuses whole ones; 33 is a usage error")
  func signatureSize() async throws {
    let root = try TemporaryDirectory()
    try FileManager.default.copyItem(at: TestPaths.photo("birds"), to: root.url.appendingPathComponent("birds.png"))
    let origin = try NginxOrigin(serving: root.url)
    let key = ["--key", ServeHarness.keyHex, "--salt", ServeHarness.saltHex, "--allow-private-sources"]
    let serve = try ServeProcess(key + ["--signature-size", "8"])
    let short = try URLSigner(hexKey: ServeHarness.keyHex, hexSalt: ServeHarness.saltHex, signatureSize: 8)
    let options = ServeHarness.fit(20, 20)
    let source = origin.url("/birds.png")
    let cut = try await HTTPProbe.send(port: serve.port, path: short.signedPath(options: options, source: source))
    #expect(cut.status == 200)
    let whole = try await HTTPProbe.send(port: serve.port, path: ServeHarness.path(options, source))
    #expect(whole.status == 403)
    serve.send(SIGTERM)
    #expect(await serve.exitStatus() == 0)
    #expect(try await CLIRunner.run(["serve", "--port", "0"] + key + ["--signature-size", "33"]).status == 2)
  }
}
