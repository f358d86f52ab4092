import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension DataLoaderTests {
  /// Both loaders against a real nginx serving the bundled sample images.
  @Suite("Against nginx")
  struct Nginx {
    static let samples = TestPaths.repositoryRoot.appendingPathComponent("samples")

    static func sampleNames() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("Sample images arrive byte for byte with monotonic progress", arguments: LoaderKind.allCases)
    func samplesArriveIntact(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let names = try Self.sampleNames()
      try #require(names.count >= 4)
      let loader = kind.make(quickConfiguration())
      for name in names.prefix(8) {
        let expected = try Data(contentsOf: Self.samples.appendingPathComponent(name))
        let outcome = await LoadOutcome.load(nginx.url("/\(name)"), with: loader)
        #expect(outcome.error == nil, "\(name): \(String(describing: outcome.error))")
        #expect(outcome.body == expected, "\(name)")
        #expect(outcome.response?.value(forHTTPHeaderField: "ETag") != nil)
        #expect(outcome.progress.allSatisfy { $0.expected == Int64(expected.count) })
        #expect(zip(outcome.progress, outcome.progress.dropFirst()).allSatisfy { $0.received < $1.received })
        #expect(outcome.progress.last?.received == Int64(expected.count))
        #expect(try nginx.requestCount("/\(name)") == 1)
      }
    }

    @Test("Parallel loads through one loader all succeed, once each", arguments: LoaderKind.allCases)
    func parallelLoads(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let names = try Self.sampleNames()
      let loader = kind.make(quickConfiguration())
      let sizes = try Dictionary(
        uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: Self.samples.appendingPathComponent($0)).count) })
      let results = await withTaskGroup(of: (String, Int, MagpieError?).self) { group in
        for name in names {
          let url = nginx.url("/\(name)")
          group.addTask {
            let outcome = await LoadOutcome.load(url, with: loader)
            return (name, outcome.body.count, outcome.error)
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.count == names.count)
      for (name, count, error) in results {
        #expect(error == nil, "\(name): \(String(describing: error))")
        #expect(count == sizes[name])
        #expect(try nginx.requestCount("/\(name)") == 1)
      }
    }

    /// The curl loop hands chunks over in batches while input keeps coming;
    /// peeking for input must not swallow the wake-up that announces a new
    /// load, or that load waits out the loop's idle poll. Here that poll and
    /// the load's timeouts are an hour, so a lost wake-up hangs the test
    /// until its time limit: no wall-clock bound, which the whole suite's
    /// scheduling on two cores could exceed.
    @Test("Loads started while large bodies stream start at once", .timeLimit(Sanitizer.suiteTimeLimit))
    func loadsStartWhileBodiesStream() async throws {
      let folder = try TemporaryDirectory()
      // A small PNG (the loader checks that bodies sniff as images) padded
      // with 2 MB of noise after its end.
      var generator = SystemRandomNumberGenerator()
      var body = try CoderRegistry.shared.encode(Image(pixels: PixelBuffer(width: 4, height: 4)), as: .png)
      body.append(contentsOf: (0..<(1 << 18)).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } })
      try body.write(to: folder.url.appendingPathComponent("large.png"))
      let expected = body
      let nginx = try NginxOrigin(serving: folder.url)
      defer { nginx.stop() }
      let hour = Duration.seconds(3600)
      let loader = CurlDataLoader(
        configuration: quickConfiguration(timeout: hour, resourceTimeout: hour), idlePoll: hour)
      let url = nginx.url("/large.png")
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<6 {
          group.addTask {
            for _ in 0..<25 {
              let outcome = await LoadOutcome.load(url, with: loader)
              #expect(outcome.error == nil)
              // Not `==` inside #expect: a failure would diff 2 MB.
              let intact = outcome.body == expected
              #expect(intact)
            }
          }
        }
      }
      #expect(try nginx.requestCount("/large.png") == 150)
    }

    @Test("Sequential loads reuse one keep-alive connection", arguments: LoaderKind.allCases)
    func keepAlive(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let name = try #require(try Self.sampleNames().first)
      let loader = kind.make(quickConfiguration())
      for _ in 0..<10 {
        let outcome = await LoadOutcome.load(nginx.url("/\(name)"), with: loader)
        #expect(outcome.error == nil)
      }
      #expect(try nginx.requestCount("/\(name)") == 10)
      #expect(try nginx.connectionCount("/\(name)") == 1)
    }

    /// The curl loader splits the limit over its threads (``CurlDriverBalance``);
    /// together they open no more connections than it allows.
    @Test(
      "Loads at once open at most maximumConnectionsPerHost connections", arguments: [LoaderKind.curl, .curlWholeBody])
    func connectionLimit(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let name = try #require(try Self.sampleNames().first)
      var configuration = quickConfiguration()
      configuration.maximumConnectionsPerHost = 3
      let loader = kind.make(configuration)
      let url = nginx.url("/\(name)")
      let failures = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<24 { group.addTask { await LoadOutcome.load(url, with: loader).error == nil ? 0 : 1 } }
        return await group.reduce(0, +)
      }
      #expect(failures == 0)
      #expect(try nginx.requestCount("/\(name)") == 24)
      let connections = try nginx.connectionCount("/\(name)")
      #expect(connections <= 3, "\(connections) connections")
      #expect(connections >= 1)
    }

    @Test("nginx's ETag and Last-Modified make conditional requests answer 304", arguments: LoaderKind.allCases)
    func conditional(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let name = try #require(try Self.sampleNames().first)
      let loader = kind.make(quickConfiguration())
      let first = await LoadOutcome.load(nginx.url("/\(name)"), with: loader)
      let etag = try #require(first.response?.value(forHTTPHeaderField: "ETag"))
      let lastModified = try #require(first.response?.value(forHTTPHeaderField: "Last-Modified"))
      for (field, value) in [("If-None-Match", etag), ("If-Modified-Since", lastModified)] {
        var request = URLRequest(url: nginx.url("/\(name)"))
        request.setValue(value, forHTTPHeaderField: field)
        let outcome = await LoadOutcome.load(request, with: loader)
        #expect(outcome.error == nil, "\(field)")
        #expect(outcome.response?.statusCode == 304, "\(field)")
        #expect(outcome.body.isEmpty)
      }
      var stale = URLRequest(url: nginx.url("/\(name)"))
      stale.setValue("\"not-the-etag\"", forHTTPHeaderField: "If-None-Match")
      let changed = await LoadOutcome.load(stale, with: loader)
      #expect(changed.response?.statusCode == 200)
      #expect(!changed.body.isEmpty)
    }

    @Test("A missing file is a 404", arguments: LoaderKind.allCases)
    func missing(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples)
      defer { nginx.stop() }
      let outcome = await LoadOutcome.load(nginx.url("/no-such-image.png"), with: kind.make(quickConfiguration()))
      #expect(outcome.error?.code == .httpStatus)
      #expect(outcome.error?.statusCode == 404)
    }

    @Test("A self-signed certificate is refused unless its host is allowed", arguments: LoaderKind.allCases)
    func selfSignedCertificate(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples, tls: true)
      defer { nginx.stop() }
      let name = try #require(try Self.sampleNames().first)
      let refused = await LoadOutcome.load(nginx.url("/\(name)"), with: kind.make(quickConfiguration()))
      RobustnessRecord.hostileOrigin(
        "selfSignedCertificate", loader: kind.rawValue, error: refused.error, elapsed: refused.elapsed)
      #expect(refused.error?.code == .network)
      #expect(refused.body.isEmpty)
      var configuration = quickConfiguration()
      configuration.hostsAllowingInvalidCertificates = ["127.0.0.1"]
      let allowed = await LoadOutcome.load(nginx.url("/\(name)"), with: kind.make(configuration))
      switch kind {
      case .curl, .curlWholeBody:
        #expect(allowed.error == nil)
        #expect(allowed.body == (try Data(contentsOf: Self.samples.appendingPathComponent(name))))
      case .urlSession:
        // FoundationNetworking has no server-trust hook on Linux: the
        // loader refuses the setting rather than ignore it.
        #expect(allowed.error?.code == .invalidArgument)
        #expect(allowed.error?.reason.contains("hostsAllowingInvalidCertificates") == true)
      }
      // Another host's allowance changes nothing.
      configuration.hostsAllowingInvalidCertificates = ["localhost"]
      let otherHost = await LoadOutcome.load(nginx.url("/\(name)"), with: kind.make(configuration))
      #expect(otherHost.error?.code == (kind.isCurl ? .network : .invalidArgument))
    }

    @Test("An expired certificate is refused by default, and nothing is cached", arguments: LoaderKind.allCases)
    func expiredCertificate(kind: LoaderKind) async throws {
      let nginx = try NginxOrigin(serving: Self.samples, tls: true, expired: true)
      defer { nginx.stop() }
      let name = try #require(try Self.sampleNames().first)
      let refused = await LoadOutcome.load(nginx.url("/\(name)"), with: kind.make(quickConfiguration()))
      RobustnessRecord.hostileOrigin(
        "expiredCertificate", loader: kind.rawValue, error: refused.error, elapsed: refused.elapsed)
      #expect(refused.error?.code == .network)
      // FoundationNetworking reports a failed certificate check as an
      // unknown URLError (-1), so only libcurl's reason can say "TLS".
      if kind.isCurl { #expect(refused.error?.reason.contains("TLS") == true) }
      #expect(refused.body.isEmpty)
      let pipeline = try HostilePipeline(kind: kind, configuration: quickConfiguration())
      let error = await pipeline.error(loading: nginx.url("/\(name)"))
      #expect(error?.code == .network)
      #expect(pipeline.newFiles.isEmpty)
      // An explicit allowance covers expiry too, where the loader can honour
      // it (libcurl stops checking the certificate altogether).
      guard kind.isCurl else { return }
      var configuration = quickConfiguration()
      configuration.hostsAllowingInvalidCertificates = ["127.0.0.1"]
      let allowed = await LoadOutcome.load(nginx.url("/\(name)"), with: kind.make(configuration))
      #expect(allowed.error == nil)
    }
  }
}
