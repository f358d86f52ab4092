import Foundation
import Magpie

/// `magpie prefetch URLS_FILE|- [--concurrency N] [--process SPEC]
/// [--cache-dir DIR] [--redis URL]`: loads a list into the caches. On a terminal a live
/// progress bar (count, rate, ETA) on stderr; otherwise a plain line per
/// tenth of the list. The last line is `N finished, M skipped, K failed`, after one about
/// the Redis tier's hits with `--redis`.
enum PrefetchCommand {
  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: ["--concurrency", "--process", "--cache-dir", "--redis"])
    guard arguments.positionals.count == 1 else { throw .usage("prefetch", "expected one URLS_FILE or -") }
    let concurrency = try arguments.integer("--concurrency", in: 1...256, default: 6)
    let spec = try arguments.value("--process").map { (text) throws(CLIError) in try ProcessSpec.parsing(text) }
    let processors = spec?.steps.map(\.processor) ?? []
    let listing = String(decoding: try await InputFile.read(arguments.positionals[0]), as: UTF8.self)
    var requests: [ImageRequest] = []
    for (number, line) in listing.split(whereSeparator: \.isNewline).enumerated() {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.isEmpty || text.hasPrefix("#") { continue }
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
      else {
        // The line is shown redacted: a list of URLs is where tokens are.
        let shown = URL(string: text).map { ": \($0.redactedDescription)" } ?? ""
        throw .usage("prefetch", "line \(number + 1) is not an http(s) URL\(shown)")
      }
      // The process ends when the list does: results held in memory would
      // only grow it (a 256 px thumbnail is 256 KB of pixels).
      requests.append(ImageRequest(url: url, processors: processors, options: [.disableMemoryCacheWrites]))
    }
    let redis = try RedisOption.parse(arguments.value("--redis"), concurrency: concurrency)
    let manager = try CLIManager.make(
      cacheDirectory: arguments.value("--cache-dir"), noCache: false, concurrency: concurrency, redis: redis)
    let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: concurrency)
    let meter = ProgressMeter(total: requests.count, interactive: isatty(STDERR_FILENO) == 1)
    let result = await prefetcher.prefetch(requests) { progress in meter.update(progress) }
    await manager.waitForPendingWrites()
    meter.finish()
    if let redis { print(redis.summary()) }
    print("\(result.finished) finished, \(result.skipped) skipped, \(result.failed) failed")
    if result.failed > 0 {
      throw CLIError.failure("prefetch", "\(result.failed) of \(result.total) failed").silenced
    }
  }
}
