import Dispatch
import Foundation
import Magpie

/// Magpie's additions to the `magpie bench` protocol:
///
/// - `process:SPEC`: for each image, decode it once untimed, then time
///   running the `--process` SPEC over it (pixels in memory to pixels in
///   memory), as the `webp` task times only the encoder.
/// - `thumb-batch`: every image of the list thumbnailed as `thumb` does,
///   all at once on every core; one line per list, `{"path": LISTFILE,
///   "ms": [...], "out": [IMAGES, 0]}`, each time for the whole list.
extension ProcessSpec {
  /// The spec of a `process:SPEC` task, `nil` for any other task; a bad
  /// SPEC is a usage error.
  static func benchSpec(_ task: String) throws(CLIError) -> ProcessSpec? {
    guard task.hasPrefix("process:") else { return nil }
    return try ProcessSpec.parsing(String(task.dropFirst("process:".count)))
  }

  /// One `process:SPEC` line for the image at `path`.
  func measure(path: String, reps: Int, warmup: Int) -> JSONValue {
    let image: Image
    do {
      image = try CoderRegistry.shared.decode(InputFile.readFile(path), options: DecodeOptions(firstFrameOnly: true))
    } catch let error as MagpieError {
      return .object([("path", .string(path)), ("skip", .string(error.description))])
    } catch {
      return .object([("path", .string(path)), ("skip", .string("\(error)"))])
    }
    do {
      var size = image.pixelSize
      for _ in 0..<warmup { size = try apply(to: image).pixelSize }
      let times = try Self.timed(reps) { () throws(CLIError) in size = try apply(to: image).pixelSize }
      return .object([
        ("path", .string(path)), ("ms", .array(times)), ("out", .array([.int(size.width), .int(size.height)])),
      ])
    } catch {
      return .object([("path", .string(path)), ("skip", .string("\(error.what): \(error.why)"))])
    }
  }

  /// The `thumb-batch` line: every image thumbnailed concurrently, all cores.
  static func measureBatch(listFile: String, paths: [String], reps: Int, warmup: Int) -> JSONValue {
    let failures = Lock(0)
    let run = {
      DispatchQueue.concurrentPerform(iterations: paths.count) { index in
        do {
          _ = try BenchCommand.thumbnail(InputFile.readFile(paths[index]))
        } catch {
          failures.withLock { $0 += 1 }
        }
      }
    }
    for _ in 0..<warmup { run() }
    guard failures.withLock({ $0 }) == 0 else {
      return .object([("path", .string(listFile)), ("skip", .string("some images did not thumbnail"))])
    }
    let times = timed(reps, run)
    return .object([("path", .string(listFile)), ("ms", .array(times)), ("out", .array([.int(paths.count), .int(0)]))])
  }

  /// Milliseconds of `reps` runs of `body`, on the monotonic clock.
  private static func timed<E: Error>(_ reps: Int, _ body: () throws(E) -> Void) throws(E) -> [JSONValue] {
    let clock = ContinuousClock()
    var times: [JSONValue] = []
    for _ in 0..<reps {
      let start = clock.now
      try body()
      times.append(.double((clock.now - start).milliseconds))
    }
    return times
  }
}
