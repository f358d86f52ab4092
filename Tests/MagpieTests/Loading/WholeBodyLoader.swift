import Foundation
import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A loader whose stream is `inner`'s ``DataLoading/data(for:)``: the
/// response, then the whole body as one chunk. Runs every loader test
/// through the whole-body path; cancelling the stream cancels the call.
struct WholeBodyLoader: DataLoading {
  let inner: any DataLoading

  init(_ inner: any DataLoading) { self.inner = inner }

  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    let inner = inner
    return AsyncThrowingStream { continuation in
      let task = Task {
        do throws(MagpieError) {
          let (body, response) = try await inner.data(for: request)
          continuation.yield(.response(response))
          if !body.isEmpty {
            let expected = response.expectedContentLength
            continuation.yield(.data(body, received: Int64(body.count), expected: expected >= 0 ? expected : nil))
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
