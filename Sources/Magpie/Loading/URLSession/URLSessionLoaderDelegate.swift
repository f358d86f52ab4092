import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The session delegate of a ``URLSessionDataLoader``: routes each callback
/// to the transfer that owns the task.
final class URLSessionLoaderDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let transfers = Lock<[Int: URLSessionTransfer]>([:])

  func register(_ transfer: URLSessionTransfer, for taskIdentifier: Int) {
    transfers.withLock { $0[taskIdentifier] = transfer }
  }

  func unregister(_ taskIdentifier: Int) {
    _ = transfers.withLock { $0.removeValue(forKey: taskIdentifier) }
  }

  private func transfer(_ task: URLSessionTask) -> URLSessionTransfer? {
    transfers.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    transfer(dataTask)?.didReceive(response)
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    transfer(dataTask)?.didReceive(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    transfer(task)?.didComplete(error)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let transfer = transfer(task) else { return }
    transfer.willRedirect(response, proposed: request, completion: completionHandler)
  }
}
