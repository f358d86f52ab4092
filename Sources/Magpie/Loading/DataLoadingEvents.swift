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
          if body.isEmpty && !chunk.isEmpty {
            let announced = response?.expectedContentLength ?? -1
            if announced > chunk.count {
              // More chunks to come: room for all of them at once.
              body.reserveCapacity(Int(min(announced, 256 << 20)))
              body.append(chunk)
            } else {
              // The whole body (a collecting loader's one chunk), or
              // nothing announced to make room for: kept, not copied.
              body = chunk
            }
          } else if !chunk.isEmpty {
            body.append(chunk)
          }
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
