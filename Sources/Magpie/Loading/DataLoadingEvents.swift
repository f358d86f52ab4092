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
  /// name them.
  /// `progress` sees every chunk's count, and a collecting loader's
  /// progress-only events (no bytes).
  static func collect(
    progress: ((Int64, Int64?) -> Void)?, _ next: () async throws -> DataLoadingEvent?
  ) async throws(MagpieError) -> (Data, HTTPURLResponse) {
    var response: HTTPURLResponse?
    var body = Data()
    do {
      while let event = try await next() {
        switch event {
        case .response(let head):
          response = head
          let expected = head.expectedContentLength
          if expected > 0 { body.reserveCapacity(Int(min(expected, 256 << 20))) }
        case .data(let chunk, let received, let expected):
          // The collecting loaders hand the whole body as one chunk.
          if body.isEmpty { body = chunk } else if !chunk.isEmpty { body.append(chunk) }
          progress?(received, expected)
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
}
