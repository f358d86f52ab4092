import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns a load's events into its whole body: what
/// ``DataLoading/data(for:)`` returns, for every loader.
enum DataLoadingEvents {
  /// Reads `next` to the end: the response and the body's chunks joined.
  /// A stream that ends before a response, or ends because the task was
  /// cancelled, is an error; so is any error it throws, as the loaders
  /// name them. `onData` sees the body so far after every chunk, and at a
  /// collecting loader's progress-only events (no bytes).
  /// Adds `chunk` to the body so far. The first of several chunks makes
  /// room for all that was `announced` (at most 256 MiB) at once; the whole
  /// body in one chunk (a collecting loader's), or a first chunk with
  /// nothing announced to make room for, is kept, not copied.
  static func append(_ chunk: Data, to body: inout Data, announced: Int64) {
    guard !chunk.isEmpty else { return }
    guard body.isEmpty else { return body.append(chunk) }
    guard announced > chunk.count else { return body = chunk }
    body.reserveCapacity(Int(min(announced, 256 << 20)))
    body.append(chunk)
  }

  static func collect(
    _ next: () async throws -> DataLoadingEvent?,
    onData: ((_ body: Data, _ received: Int64, _ expected: Int64?) -> Void)? = nil
  ) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    var response: HTTPURLResponse?
    var body = Data()
    do {
      while let event = try await next() {
        switch event {
        case .response(let head):
          response = head
          body = Data()
        case .data(let chunk, let received, let expected):
          append(chunk, to: &body, announced: response?.expectedContentLength ?? -1)
          onData?(body, received, expected)
        }
      }
    } catch let error as MagpieError {
      throw error
    } catch is CancellationError {
      throw MagpieError(.cancelled, "the load was cancelled")
    } catch {
      throw MagpieError(.network, "\(error)", underlying: error)
    }
    if Task.isCancelled { throw MagpieError(.cancelled, "the load was cancelled") }
    guard let response else {
      throw MagpieError(.network, "the connection ended before a response arrived")
    }
    return (body, response)
  }

  /// `progress` as an `onData` callback for ``collect(_:onData:)``.
  static func reporting(
    _ progress: ((_ received: Int64, _ expected: Int64?) -> Void)?
  ) -> ((Data, Int64, Int64?) -> Void)? {
    progress.map { progress in { _, received, expected in progress(received, expected) } }
  }
}
