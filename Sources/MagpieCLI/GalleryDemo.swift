import Foundation
import Magpie

/// The network half of `magpie demo`: loads a gallery from an origin three
/// times through the full pipeline with a 256 px thumbnail processor —
/// cold (network), from disk (a new manager on the same cache folder),
/// from memory — and prints a table per pass.
enum GalleryDemo {
  /// What one pass loaded.
  struct Pass {
    var name: String
    var elapsed: Duration
    var sources: [CacheType: Int]
    var bytes: Int
    var failures: [String]
    var thumbnails: [PixelBuffer]
  }

  static func run(names: [String], baseURL: URL, cacheDirectory: String, output: String) async throws(CLIError) {
    let requests = names.map { name in
      ImageRequest(
        url: baseURL.appendingPathComponent(name),
        processors: [ImageProcessors.Downsampling(size: PixelSize(width: DemoCommand.cell, height: DemoCommand.cell))],
        options: [.onlyLoadFirstFrame])
    }
    print("gallery: \(names.count) images from \(baseURL.absoluteString), cache \(cacheDirectory)\n")
    let cold = try CLIManager.make(cacheDirectory: cacheDirectory, noCache: false)
    let first = await load("cold (network)", requests, with: cold)
    await cold.waitForPendingWrites()
    // A new manager on the same folder: its memory is empty, its disk is not.
    let warm = try CLIManager.make(cacheDirectory: cacheDirectory, noCache: false)
    let second = await load("disk", requests, with: warm)
    let third = await load("memory", requests, with: warm)
    print(header())
    for pass in [first, second, third] { print(row(pass, images: requests.count)) }
    for failure in first.failures + second.failures + third.failures { print("  failed: \(failure)") }

    let sheet = DemoCommand.contactSheet(third.thumbnails)
    try DemoCommand.writeContactSheet(sheet, to: output)
    print("\ncontact sheet \(output) (\(sheet.size))")
    let failed = first.failures.count + second.failures.count + third.failures.count
    if failed > 0 { throw CLIError.failure("demo", "\(failed) loads failed").silenced }
  }

  /// Loads every request at once (the downloader keeps 6 transfers going).
  static func load(_ name: String, _ requests: [ImageRequest], with manager: ImageManager) async -> Pass {
    let clock = ContinuousClock()
    let start = clock.now
    let results = await withTaskGroup(of: (Int, Result<ImageResult, MagpieError>).self) { group in
      for (index, request) in requests.enumerated() {
        group.addTask {
          do throws(MagpieError) {
            return (index, .success(try await manager.image(for: request)))
          } catch {
            return (index, .failure(error))
          }
        }
      }
      var results: [Int: Result<ImageResult, MagpieError>] = [:]
      for await (index, result) in group { results[index] = result }
      return results
    }
    var pass = Pass(name: name, elapsed: clock.now - start, sources: [:], bytes: 0, failures: [], thumbnails: [])
    for index in requests.indices {
      switch results[index] {
      case .success(let result)?:
        pass.sources[result.cacheType, default: 0] += 1
        pass.bytes += result.metrics.bytesLoaded + result.metrics.bytesFromCache
        pass.thumbnails.append(result.image.pixels)
      case .failure(let error)?:
        pass.failures.append("\(requests[index].url?.lastPathComponent ?? "?"): \(error)")
      case nil:
        break
      }
    }
    return pass
  }

  private static func header() -> String {
    pad(["pass", "images", "ms", "network", "disk", "memory", "failed", "bytes read"])
  }

  private static func row(_ pass: Pass, images: Int) -> String {
    pad([
      pass.name, "\(images)", String(format: "%.1f", pass.elapsed.milliseconds), "\(pass.sources[.none] ?? 0)",
      "\(pass.sources[.disk] ?? 0)", "\(pass.sources[.memory] ?? 0)", "\(pass.failures.count)", "\(pass.bytes)",
    ])
  }

  private static func pad(_ cells: [String]) -> String {
    let widths = [16, 7, 9, 8, 6, 7, 7, 11]
    return zip(cells, widths).enumerated().map { index, pair in
      let padding = String(repeating: " ", count: max(0, pair.1 - pair.0.count))
      return index == 0 ? pair.0 + padding : padding + pair.0
    }.joined(separator: " ")
  }
}
