import Foundation

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A ``QueueingDataLoader`` whose loads end before `enqueueLoad` returns:
/// the slot is free, the body is at hand, so `completion` runs at once on
/// the calling thread. That is the order a real loader's thread can take
/// when the caller is descheduled, made certain. Each load's cancel holds
/// the load, and so its `completion`, as the libcurl loader's does.
/// Every body it hands out is counted until released.
final class InstantQueueingLoader: QueueingDataLoader {
  /// Bodies handed out and not yet released.
  let liveBodies = Lock(0)
  private let bytes: Data

  /// A loader answering every request with `bytes`.
  init(serving bytes: Data) { self.bytes = bytes }

  private final class Load: Sendable {
    let completion: @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void
    init(_ completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void) {
      self.completion = completion
    }
    func cancel() { completion(.failure(MagpieError(.cancelled, "cancelled"))) }
  }

  /// A copy of the bytes in memory of its own, counted while alive.
  private func body() -> Data {
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
    bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    liveBodies.withLock { $0 += 1 }
    return Data(
      bytesNoCopy: buffer, count: bytes.count,
      deallocator: .custom { [liveBodies] pointer, _ in
        pointer.deallocate()
        liveBodies.withLock { $0 -= 1 }
      })
  }

  func enqueueLoad(
    of request: URLRequest, in slot: TransferQueue.Slot, progress: @escaping @Sendable (Int64, Int64?) -> Void,
    completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), MagpieError>) -> Void
  ) -> @Sendable () -> Void {
    let load = Load(completion)
    slot.enqueue { [self] in
      let response = HTTPURLResponse(
        url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Length": "\(bytes.count)"])!
      let body = body()
      slot.release()
      completion(.success((body, response)))
    }
    return { load.cancel() }
  }

  func load(_ request: URLRequest) -> AsyncThrowingStream<DataLoadingEvent, any Error> {
    AsyncThrowingStream { continuation in
      continuation.finish(throwing: MagpieError(.network, "only queued loads are served"))
    }
  }
}
