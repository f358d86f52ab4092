import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransfer {
  /// The load's mutable part, behind the lock.
  struct State: Sendable {
    var output: Output?
    var task: URLSessionDataTask?
    var preparation: Task<Void, Never>?
    /// The request of the current hop, as sent.
    var request: URLRequest
    /// The first request, after modifiers.
    var original: URLRequest
    var validator: ResponseValidator
    var deadline: TransferDeadline
    var redirects = 0
    /// Set while a redirect handler decides: the task must then be ended
    /// through this completion handler, never with `cancel()`, or
    /// FoundationNetworking traps when the late answer arrives.
    var pendingRedirect: (@Sendable (URLRequest?) -> Void)?
    // DispatchWorkItem.cancel() is thread-safe.
    var timer: UncheckedSendable<DispatchWorkItem>?
  }
}
