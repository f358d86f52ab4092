import CMicroHTTPD
import Magpie

/// One request between the access handler's first call, which suspends its
/// connection and starts the handler, and the call after the resume, which
/// queues the response. MHD holds it (retained) in the connection's
/// per-request pointer until the request completes.
final class PendingRequest: Sendable {
  /// Whether the request counts in the server's ``InFlightTable``.
  let counted: Bool
  private let state = Lock<(response: HTTPResponse?, task: Task<Void, Never>?)>((nil, nil))

  init(counted: Bool) { self.counted = counted }

  /// The response, once the handler has returned.
  var response: HTTPResponse? { state.withLock { $0.response } }

  /// Records the handler's answer.
  func finish(with response: HTTPResponse) { state.withLock { $0.response = response } }

  /// Keeps the handler's task, so a shutdown past its grace can cancel it.
  func attach(_ task: Task<Void, Never>) { state.withLock { $0.task = task } }

  /// Cancels the handler's task; it still answers (503), which resumes
  /// the connection.
  func cancel() { state.withLock { $0.task }?.cancel() }
}
