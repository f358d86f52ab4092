import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One load through ``URLSessionDataLoader``: its stream, its URLSession
/// task (one per load, redirects included), its checks and its deadlines.
///
/// Everything that can end a load (the last byte, an error, a timeout, the
/// consumer leaving) goes through ``end(_:cancellingTask:)``, which finishes
/// the stream exactly once.
final class URLSessionTransfer: Sendable {
  typealias Continuation = AsyncThrowingStream<DataLoadingEvent, any Error>.Continuation

  private struct State: Sendable {
    var continuation: Continuation?
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

  private static let timerQueue = DispatchQueue(label: "magpie.urlsession-loader.timeouts")

  private let configuration: DataLoaderConfiguration
  private let registry: URLSessionLoaderDelegate
  /// The loader's queue for calls into FoundationNetworking that wait on
  /// its internal queue (`resume()`, `cancel()`): made there, they can
  /// never block the caller's thread, a Swift concurrency thread, or the
  /// timers, even when that internal queue is stuck (see
  /// ``URLSessionDataLoader``).
  private let control: DispatchQueue
  private let state: Lock<State>

  init(
    request: URLRequest, configuration: DataLoaderConfiguration, continuation: Continuation,
    registry: URLSessionLoaderDelegate, control: DispatchQueue
  ) {
    self.configuration = configuration
    self.registry = registry
    self.control = control
    let deadline = TransferDeadline(
      idle: configuration.idleTimeout(for: request), total: configuration.resourceTimeout)
    state = Lock(
      State(
        continuation: continuation, request: request, original: request,
        validator: ResponseValidator(request: request, configuration: configuration), deadline: deadline))
  }

  /// Remembers the task that runs async request modifiers, to cancel it
  /// with the load.
  func setPreparation(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state in
      guard state.continuation != nil else { return true }
      state.preparation = task
      return false
    }
    if cancelled { task.cancel() }
  }

  /// Sends the prepared request, or ends the load with the preparation's
  /// error.
  func start(_ prepared: Result<URLRequest, MagpieError>, session: URLSession) {
    let request: URLRequest
    switch prepared {
    case .failure(let error):
      end(error, cancellingTask: false)
      return
    case .success(let value):
      request = value
    }
    var sent = request
    // FoundationNetworking's own timer (whole seconds, reset on every
    // chunk) only backs ours up.
    sent.timeoutInterval = Double(configuration.resourceTimeout.components.seconds) + 5
    let live = state.withLock { state in
      guard state.continuation != nil else { return false }
      state.request = request
      state.original = request
      state.validator = ResponseValidator(request: request, configuration: configuration)
      state.preparation = nil
      return true
    }
    guard live else { return }
    scheduleTimer()
    let toSend = sent
    control.async { [self] in
      let task = session.dataTask(with: toSend)
      let started = state.withLock { state in
        guard state.continuation != nil else { return false }
        state.task = task
        return true
      }
      guard started else { return }
      registry.register(self, for: task.taskIdentifier)
      task.resume()
    }
  }

  /// The consumer left (its task was cancelled or it dropped the stream).
  func cancel() {
    end(MagpieError(.cancelled, "the load was cancelled"), cancellingTask: true)
  }

  // MARK: Delegate events (on the session's serial delegate queue)

  func didReceive(_ response: URLResponse) {
    guard let response = response as? HTTPURLResponse else {
      end(MagpieError(.invalidResponse, "the answer was not an HTTP response"), cancellingTask: true)
      return
    }
    let failure = state.withLock { (state: inout State) -> MagpieError? in
      guard let continuation = state.continuation else { return nil }
      state.deadline.touch()
      do throws(MagpieError) {
        try state.validator.accept(ResponseHead(response))
        continuation.yield(.response(response))
        return nil
      } catch {
        return error
      }
    }
    if let failure { end(failure, cancellingTask: true) }
  }

  func didReceive(_ data: Data) {
    let failure = state.withLock { (state: inout State) -> MagpieError? in
      guard let continuation = state.continuation else { return nil }
      state.deadline.touch()
      do throws(MagpieError) {
        if let event = try state.validator.accept(data) { continuation.yield(event) }
        return nil
      } catch {
        return error
      }
    }
    if let failure { end(failure, cancellingTask: true) }
  }

  func didComplete(_ error: (any Error)?) {
    if let error {
      let failure = state.withLock { state -> MagpieError in
        // FoundationNetworking reports libcurl's "transfer closed with N
        // bytes remaining" (a clean close before Content-Length) as an
        // unknown error; say what it is, as the curl loader does.
        if let urlError = error as? URLError, urlError.code == .unknown,
          let expected = state.validator.expected, state.validator.received < expected
        {
          do throws(MagpieError) { _ = try state.validator.finish() } catch { return error }
        }
        return URLSessionErrorMapping.magpieError(error, url: state.request.url)
      }
      end(failure, cancellingTask: false)
      return
    }
    let failure = state.withLock { (state: inout State) -> MagpieError? in
      guard let continuation = state.continuation else { return nil }
      do throws(MagpieError) {
        if let event = try state.validator.finish() { continuation.yield(event) }
        return nil
      } catch {
        return error
      }
    }
    end(failure, cancellingTask: false)
  }

  /// A redirect: counts it, builds the next request by ``RedirectRules``,
  /// asks the handler, and answers FoundationNetworking.
  ///
  /// FoundationNetworking traps if the completion handler is called after
  /// the task was cancelled, so it is called under the lock (cancellation
  /// takes the lock too), or handed to ``end(_:cancellingTask:)``, which
  /// then calls it with `nil` instead of cancelling the task. A redirect
  /// that arrives after the load ended gets no answer: its task is gone.
  func willRedirect(
    _ response: HTTPURLResponse, proposed: URLRequest, completion: @escaping @Sendable (URLRequest?) -> Void
  ) {
    enum Step {
      case done
      case fail(MagpieError)
      case ask(HTTPRedirect)
    }
    let maximum = configuration.maximumRedirects
    let step: Step = state.withLock { state in
      guard state.continuation != nil else { return .done }
      state.redirects += 1
      state.deadline.touch()
      let from = state.request.url?.absoluteString ?? "?"
      guard state.redirects <= maximum else {
        state.pendingRedirect = completion
        return .fail(
          MagpieError(
            .invalidResponse,
            "more than \(maximum) redirects (maximumRedirects), the last from \(from); a redirect loop?"))
      }
      var next: URLRequest
      switch RedirectRules.nextRequest(after: response, to: state.request) {
      case .failure(let error)?:
        state.pendingRedirect = completion
        return .fail(error)
      case .success(let request)?: next = request
      case nil: next = proposed
      }
      RequestPreparation.addCredentials(to: &next, configuration: configuration)
      guard configuration.redirectHandler != nil else {
        state.request = next
        completion(withBackstopTimeout(next))
        return .done
      }
      state.pendingRedirect = completion
      return .ask(
        HTTPRedirect(
          response: response, proposedRequest: next, originalRequest: state.original, number: state.redirects))
    }
    switch step {
    case .done:
      return
    case .fail(let error):
      end(error, cancellingTask: true)
    case .ask(let redirect):
      guard let handler = configuration.redirectHandler else { return }
      Task {
        let decision = await handler(redirect)
        self.decide(decision, redirect: redirect)
      }
    }
  }

  private func decide(_ decision: RedirectDecision, redirect: HTTPRedirect) {
    let next: URLRequest?
    switch decision {
    case .follow: next = redirect.proposedRequest
    case .followModified(let request): next = request
    case .refuse: next = nil
    }
    let followed: Bool = state.withLock { state in
      guard let next, let completion = state.pendingRedirect else { return false }
      state.pendingRedirect = nil
      state.request = next
      completion(withBackstopTimeout(next))
      return true
    }
    guard !followed, next == nil else { return }
    let status = redirect.response.statusCode
    end(
      MagpieError(
        .httpStatus,
        "the redirect handler refused the \(status) redirect to \(redirect.proposedRequest.url?.absoluteString ?? "?")",
        statusCode: status),
      cancellingTask: true)
  }

  private func withBackstopTimeout(_ request: URLRequest) -> URLRequest {
    var request = request
    request.timeoutInterval = Double(configuration.resourceTimeout.components.seconds) + 5
    return request
  }

  // MARK: Ending

  /// Finishes the stream (with `error`, or cleanly when `nil`) unless it is
  /// finished already, and stops the transfer.
  private func end(_ error: MagpieError?, cancellingTask: Bool) {
    let taken = state.withLock {
      state -> (
        Continuation, URLSessionDataTask?, (@Sendable (URLRequest?) -> Void)?, UncheckedSendable<DispatchWorkItem>?,
        Task<Void, Never>?
      )?
      in
      guard let continuation = state.continuation else { return nil }
      state.continuation = nil
      defer {
        state.pendingRedirect = nil
        state.timer = nil
        state.preparation = nil
      }
      return (continuation, state.task, state.pendingRedirect, state.timer, state.preparation)
    }
    guard let (continuation, task, pendingRedirect, timer, preparation) = taken else { return }
    timer?.value.cancel()
    preparation?.cancel()
    if let task { registry.unregister(task.taskIdentifier) }
    if let pendingRedirect {
      pendingRedirect(nil)
    } else if cancellingTask, let task {
      control.async { task.cancel() }
    }
    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
  }

  // MARK: Timeouts

  private func scheduleTimer() {
    let item = DispatchWorkItem { [weak self] in self?.timerFired() }
    let expiry: UInt64? = state.withLock { state in
      guard state.continuation != nil else { return nil }
      state.timer = UncheckedSendable(item)
      return state.deadline.nextExpiry
    }
    guard let expiry else { return }
    Self.timerQueue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: expiry), execute: item)
  }

  private func timerFired() {
    enum Check {
      case done
      case expired(MagpieError)
      case later
    }
    let check: Check = state.withLock { state in
      guard state.continuation != nil else { return .done }
      if let error = state.deadline.expired() { return .expired(error) }
      return .later
    }
    switch check {
    case .done: return
    case .expired(let error): end(error, cancellingTask: true)
    case .later: scheduleTimer()
    }
  }
}
