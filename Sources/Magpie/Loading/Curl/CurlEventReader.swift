import Foundation

/// Reads a transfer's ``CurlEvent`` stream and hands out
/// ``DataLoadingEvent``s: the engine of the stream a ``CurlDataLoader``
/// returns.
///
/// `@unchecked Sendable`: the iterator it holds is used by one consumer at
/// a time, as every `AsyncSequence` iterator is; the public stream's
/// `next()` is the only caller.
final class CurlEventReader: @unchecked Sendable {
  private var iterator: AsyncThrowingStream<[CurlEvent], any Error>.Iterator
  private var batch: [CurlEvent] = []
  private var position = 0

  init(_ events: AsyncThrowingStream<[CurlEvent], any Error>) {
    iterator = events.makeAsyncIterator()
  }

  /// The next event, `nil` at the end; throws the transfer's error.
  func next() async throws -> DataLoadingEvent? {
    while position == batch.count {
      guard let next = try await iterator.next() else { return nil }
      batch = next
      position = 0
    }
    defer { position += 1 }
    return batch[position].dataLoadingEvent
  }
}
