#if canImport(MagpieRedis)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  #if canImport(Glibc)
    import Glibc
  #endif

  /// `make demo-serve` in its test mode (`Scripts/demo-serve.sh --check
  /// DIR`): an origin, Redis, two release `magpie serve` instances and an
  /// nginx load balancer, and headless Chromium opening the page of 24
  /// signed thumbnails. The script checks what it can see and exits 1 on a
  /// failure; this test runs it and checks its artifacts again on its own:
  /// every URL's signature against ``URLSigner``, each image's natural size
  /// in Chromium against ``TransformGeometry`` over the sample's size, the
  /// screenshot decoded by Magpie, and that nothing it started still
  /// listens.
  ///
  /// It runs `.build/release/magpie`, which `make test` builds before
  /// `swift test`; it fails (never skips) without it, without Chromium
  /// (`make test` installs it) or without Pillow. The artifacts stay in
  /// `.build/artifacts/serve/test` (`demo-serve.png` is the screenshot).
  @Suite("Serve demo page")
  struct ServeDemoPageTests {
    /// Where the script writes the screenshot, Chromium's DOM and the rest.
    static let artifacts = TestPaths.repositoryRoot.appendingPathComponent(".build/artifacts/serve/test")
    /// The release CLI the demo runs.
    static let release = TestPaths.repositoryRoot.appendingPathComponent(".build/release/magpie")

    @Test(
      "the demo page's 24 thumbnails all decode in headless Chromium at their URLs' sizes",
      .timeLimit(Sanitizer.timeLimit(minutes: 5)))
    func demoPage() throws {
      try #require(
        FileManager.default.isExecutableFile(atPath: Self.release.path),
        "no \(Self.release.path): make test builds it first (make release)")
      try #require(Self.chromium() != nil, "no chromium on PATH: make test installs it (apt-get install chromium)")
      let (status, output) = try Self.runScript()
      #expect(status == 0, "Scripts/demo-serve.sh --check exited \(status):\n\(output)")

      let manifest = try Self.json("manifest.json")
      let entries = try #require(manifest["entries"] as? [[String: Any]])
      #expect(entries.count == 24)
      let signer = try URLSigner(
        hexKey: try #require(manifest["key"] as? String), hexSalt: try #require(manifest["salt"] as? String))
      let parser = try TransformURLParser(signer: signer)
      let check = try Self.json("check.json")
      let page = try #require(check["page"] as? [[String: Any]], "no page result in check.json:\n\(output)")
      let decoded = Dictionary(page.map { ($0["id"] as? String ?? "", $0) }) { first, _ in first }
      for entry in entries {
        try Self.expectDecodedAtItsSize(entry, decoded: decoded, parser: parser)
      }
      try Self.expectScreenshotDrawn()
      try Self.expectNothingListens()
    }

    /// One thumbnail: its path parses and verifies under Magpie's own
    /// signer, and Chromium's natural size is the geometry's result size
    /// for the sample, which is also what the script expected.
    private static func expectDecodedAtItsSize(
      _ entry: [String: Any], decoded: [String: [String: Any]], parser: TransformURLParser
    ) throws {
      let id = try #require(entry["id"] as? String)
      let image = try #require(entry["image"] as? String)
      let path = try #require(entry["path"] as? String)
      let request = try parser.parse(path)
      #expect(request.source.lastPathComponent == image)
      let sample = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/" + image))
      let info = try CoderRegistry.shared.info(of: sample)
      let geometry = try TransformGeometry(options: request.options, sourceSize: info.size)
      let want = [geometry.resultSize.width, geometry.resultSize.height]
      #expect(entry["expected"] as? [Int] == want, "\(image): the script expected another size than Magpie's")
      let result = try #require(decoded[id], "\(image) is not in Chromium's result")
      let got = [result["naturalWidth"] as? Int ?? -1, result["naturalHeight"] as? Int ?? -1]
      #expect(result["complete"] as? Bool == true, "\(image): not complete in Chromium")
      #expect(got == want, "\(image) (\(entry["variant"] ?? "")) decoded in Chromium at \(got), requested \(want)")
    }

    /// The screenshot is the window's size and far from one colour: the
    /// thumbnails drew (over 100,000 colours; the page's text alone, about
    /// 700).
    private static func expectScreenshotDrawn() throws {
      let png = try Data(contentsOf: artifacts.appendingPathComponent("demo-serve.png"))
      let pixels = try #require(try CoderRegistry.shared.decode(png).frames.first).pixels
      #expect(pixels.size == PixelSize(width: 1280, height: 1000))
      // Counted until there are enough: the whole image only when it fails.
      let enough = 5000
      let colours = ScreenshotColours.count(in: pixels, upTo: enough)
      #expect(colours >= enough, "the screenshot has \(colours) colours: blank, or no thumbnails drew")
    }

    /// Each port the demo listened on (ports.txt) now refuses connections.
    private static func expectNothingListens() throws {
      let lines = try String(contentsOf: artifacts.appendingPathComponent("ports.txt"), encoding: .utf8)
        .split(separator: "\n")
      #expect(lines.count == 5)
      for line in lines {
        let fields = line.split(separator: " ")
        let port = try #require(fields.count == 2 ? UInt16(fields[1]) : nil, "ports.txt: '\(line)'")
        #expect(connectionRefused(port), "\(fields[0]) still listens on 127.0.0.1:\(port) after the demo")
      }
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is refused.
    private static func connectionRefused(_ port: UInt16) -> Bool {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { return false }
      defer { close(fd) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      return result == -1 && errno == ECONNREFUSED
    }

    /// Runs the script in check mode with the release CLI; its exit status
    /// and what it printed (stdout and stderr, into a file: a process it
    /// left behind cannot hold this test's pipe open).
    private static func runScript() throws -> (Int32, String) {
      try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
      let log = artifacts.appendingPathComponent("demo-serve.log")
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      let handle = try FileHandle(forWritingTo: log)
      defer { try? handle.close() }
      let process = Process()
      process.executableURL = TestPaths.repositoryRoot.appendingPathComponent("Scripts/demo-serve.sh")
      process.arguments = ["--check", artifacts.path]
      process.environment = ProcessInfo.processInfo.environment.merging(["MAGPIE": release.path]) { $1 }
      process.currentDirectoryURL = TestPaths.repositoryRoot
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = handle
      process.standardError = handle
      let exited = DispatchSemaphore(value: 0)
      process.terminationHandler = { _ in exited.signal() }
      try process.run()
      // The script bounds each step (Chromium 120 s, each start 30 s); past
      // this it hangs, and SIGTERM makes it stop what it started.
      if exited.wait(timeout: .now() + 240) == .timedOut {
        process.terminate()
        Issue.record("Scripts/demo-serve.sh --check ran over 240 s and was sent SIGTERM")
        guard exited.wait(timeout: .now() + 30) == .success else { return (-1, "still running after SIGTERM") }
      }
      return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// An artifact's JSON object.
    private static func json(_ name: String) throws -> [String: Any] {
      let data = try Data(contentsOf: artifacts.appendingPathComponent(name))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name) is no object")
    }

    /// Chromium's path on PATH, as the script finds it.
    private static func chromium() -> String? {
      let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
      return path.split(separator: ":").map { $0 + "/chromium" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
  }
#endif
