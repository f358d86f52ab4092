import Dispatch
import Foundation

@testable import Magpie

/// A processor that records the order passes start in (by tag) and holds
/// the first pass until ``Gate/open()``: a test queues processing behind
/// it and watches the order it runs in.
struct GatedProcessor: ImageProcessor {
  /// What the passes of every processor sharing it record and wait on.
  final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let state = Lock<(isFirst: Bool, tags: [Int])>((true, []))
    /// Counts passes as they start.
    let started = AsyncCounter()

    /// The tags of the passes so far, in the order they started.
    var tags: [Int] { state.withLock { $0.tags } }

    /// Lets the held first pass finish.
    func open() { semaphore.signal() }

    fileprivate func pass(_ tag: Int) {
      let isFirst = state.withLock { state -> Bool in
        defer { state.isFirst = false }
        state.tags.append(tag)
        return state.isFirst
      }
      started.increment()
      if isFirst { semaphore.wait() }
    }
  }

  var tag: Int
  var gate: Gate

  var identifier: String { "test.gated(\(tag))" }

  func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    let image = try item.decoded(options: options)
    gate.pass(tag)
    return image
  }
}
