import Foundation
import Magpie
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `magpie loader-bench URLS_FILE [--concurrency N] [--loader curl|urlsession]
/// [--via downloader|callers] [--timeout SECONDS]`: fetches every URL in the
/// file (one per line), N at a time, each whole body into memory and
/// counted, then dropped. `--via downloader` (the default) hands every URL
/// to an ``ImageDownloader`` at once, as the pipeline does and as `curl
/// --parallel` takes its list: the downloader's line starts each next
/// transfer. `--via callers` runs N tasks that each await
/// `DataLoading.data(for:)` in turn (as aiohttp's workers `read()`).
/// Prints one JSON object: loader, via,
/// requests, failed, seconds, requests_per_s, bytes, mb_per_s, and the first
/// error when any load failed. Exit 1 when any load failed.
enum LoaderBenchCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: ["--concurrency", "--loader", "--timeout", "--via"])
    guard arguments.positionals.count == 1 else { throw .usage("loader-bench", "expected one URLS_FILE") }
    let concurrency = try arguments.integer("--concurrency", in: 1...1024, default: 6)
    let timeout = try arguments.integer("--timeout", in: 1...3600, default: 15)
    let path = arguments.positionals[0]
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw .failure("loader-bench", "cannot read \(path)")
    }
    let urls = text.split(whereSeparator: \.isNewline).compactMap { URL(string: String($0)) }
    guard !urls.isEmpty else { throw .failure("loader-bench", "\(path) lists no URLs") }
    var configuration = DataLoaderConfiguration(timeout: .seconds(timeout))
    configuration.maximumConnectionsPerHost = concurrency
    let name = arguments.value("--loader") ?? "curl"
    let loader: any DataLoading
    switch name {
    case "urlsession": loader = URLSessionDataLoader(configuration: configuration)
    case "curl": loader = CurlDataLoader(configuration: configuration)
    default: throw .usage("--loader", "expected urlsession or curl, got '\(name)'")
    }

    let via = arguments.value("--via") ?? "downloader"
    guard via == "downloader" || via == "callers" else {
      throw .usage("--via", "expected downloader or callers, got '\(via)'")
    }
    let tally = Tally()
    let clock = ContinuousClock()
    let start = clock.now
    if via == "downloader" {
      await viaDownloader(urls, loader: loader, concurrency: concurrency, tally: tally)
    } else {
      await viaCallers(urls, loader: loader, concurrency: concurrency, tally: tally)
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let total = tally.bytes.load(ordering: .relaxed)
    var fields: [(String, JSONValue)] = [
      ("loader", .string(name)), ("via", .string(via)), ("requests", .int(urls.count)),
      ("concurrency", .int(concurrency)),
      ("failed", .int(tally.failed.load(ordering: .relaxed))), ("seconds", .double(seconds)),
      ("requests_per_s", .double(Double(urls.count) / seconds)), ("bytes", .int(total)),
      ("mb_per_s", .double(Double(total) / 1e6 / seconds)),
    ]
    if let error = tally.firstError.withLock({ $0 }) { fields.append(("first_error", .string(error))) }
    print(JSONValue.object(fields).text)
    if tally.failed.load(ordering: .relaxed) > 0 {
      throw CLIError.failure("loader-bench", "\(tally.failed.load(ordering: .relaxed)) loads failed").silenced
    }
  }

  /// Every URL handed to one downloader at once; returns when all ended.
  private static func viaDownloader(_ urls: [URL], loader: any DataLoading, concurrency: Int, tally: Tally) async {
    let downloader = ImageDownloader(
      configuration: .init(
        dataLoader: loader, maximumConcurrentDownloads: concurrency, retryPolicy: .never, rateLimit: nil))
    let left = Atomic<Int>(urls.count)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      for url in urls {
        downloader.download(
          URLRequest(url: url),
          handlers: .init { result in
            tally.record(result.map(\.data), url: url)
            if left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { continuation.resume() }
          })
      }
    }
  }

  /// `concurrency` tasks, each loading the next URL when its last ended.
  private static func viaCallers(_ urls: [URL], loader: any DataLoading, concurrency: Int, tally: Tally) async {
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<concurrency {
        group.addTask {
          while true {
            let index = tally.next.add(1, ordering: .relaxed).oldValue
            guard index < urls.count else { return }
            do throws(MagpieError) {
              tally.record(.success(try await loader.data(for: URLRequest(url: urls[index])).0), url: urls[index])
            } catch {
              tally.record(.failure(error), url: urls[index])
            }
          }
        }
      }
    }
  }
}

/// What the workers of one benchmark run share.
private final class Tally: Sendable {
  let next = Atomic<Int>(0)
  let bytes = Atomic<Int>(0)
  let failed = Atomic<Int>(0)
  let firstError = Lock<String?>(nil)

  func record(_ result: Result<Data, MagpieError>, url: URL) {
    switch result {
    case .success(let body): bytes.add(body.count, ordering: .relaxed)
    case .failure(let error):
      failed.add(1, ordering: .relaxed)
      firstError.withLock { $0 = $0 ?? "\(url.absoluteString): \(error)" }
    }
  }
}
