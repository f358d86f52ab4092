import Foundation
import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A loader that never reaches the network, for benchmarks that measure
/// only the caches.
struct OfflineDataLoader: DataLoading {
  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    AsyncThrowingStream { $0.finish(throwing: MagpieError(.network, "this benchmark loads nothing")) }
  }
}
