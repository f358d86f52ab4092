import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One load through ``URLSessionDataLoader``: its output (the stream, or
/// a queued load's sink), its URLSession task (one per load, redirects
/// included), its checks and its deadlines.
///
/// Everything that can end a load (the last byte, an error, a timeout, the
/// consumer leaving) goes through ``end(_:cancellingTask:)``, which finishes
/// the output exactly once.
final class URLSessionTransfer: Sendable {
  typealias Output = URLSessionLoadOutput

  let configuration: DataLoaderConfiguration
  private let registry: URLSessionLoaderDelegate
  /// The loader's queue for calls into FoundationNetworking that wait on
  /// its internal queue (`resume()`, `cancel()`): made there, they can
  /// never block the caller's thread, a Swift concurrency thread, or the
  /// timers, even when that internal queue is stuck (see
  /// ``URLSessionDataLoader``).
  private let control: DispatchQueue
  let state: Lock<State>

  init(
    request: URLRequest, configuration: DataLoaderConfiguration, output: Output,
    registry: URLSessionLoaderDelegate, control: DispatchQueue
  ) {
    self.configuration = configuration
    self.registry = registry
    self.control = control
    let deadline = TransferDeadline(
      idle: configuration.idleTimeout(for: request), total: configuration.resourceTimeout)
    state = Lock(
      State(
        output: output, request: request, original: request,
        validator: ResponseValidator(request: request, configuration: configuration), deadline: deadline))
  }

  /// Remembers the task that runs async request modifiers, to cancel it
  /// with the load.
  func setPreparation(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state in
      guard state.output != nil else { return true }
      state.preparation = task
      return false
    }
    if cancelled { task.cancel() }
  }

  /// Sends the prepared request, or ends the load with the preparation's
  /// error.
  func start(_ prepared: Result<URLRequest, MagpieError>, session: URLSession) {
    var request: URLRequest
    switch prepared {
    case .failure(let error):
      end(error, cancellingTask: false)
      return
    case .success(let value):
      request = value
    }
    // FoundationNetworking asks for every compression libcurl knows and
    // inflates what comes back on its own queue, faster than a cancel can
    // reach it: a decompression bomb then ran on for good after the body
    // cap cancelled the task. So this loader asks for none (an explicit
    // `identity`, which libcurl sends instead of its own list), and the
    // validator refuses a body that is encoded anyway, at its head.
    if request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
      request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    }
    var sent = request
    sent.setValue(nil, forHTTPHeaderField: ResponseValidator.opaqueBodyField)
    // FoundationNetworking's own timer (whole seconds, reset on every
    // chunk) only backs ours up.
    sent.timeoutInterval = Double(configuration.resourceTimeout.components.seconds) + 5
    let live = state.withLock { state in
      guard state.output != nil else { return false }
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
        guard state.output != nil else { return false }
        state.task = task
        return true
      }
      guard started else { return }
      registry.register(self, for: task.taskIdentifier)
      task.resume()
    }
  }

  /// The consumer left (its task was cancelled, it dropped the stream, or the queued load was cancelled).
  func cancel() {
    end(MagpieError(.cancelled, "the load was cancelled"), cancellingTask: true)
  }

  /// Finishes the output (with `error`, or cleanly when `nil`) unless it is
  /// finished already, and stops the transfer.
  func end(_ error: MagpieError?, cancellingTask: Bool) {
    let taken = state.withLock {
      state -> (
        Output, URLSessionDataTask?, (@Sendable (URLRequest?) -> Void)?, UncheckedSendable<DispatchWorkItem>?,
        Task<Void, Never>?
      )?
      in
      guard let output = state.output else { return nil }
      state.output = nil
      defer {
        state.pendingRedirect = nil
        state.timer = nil
        state.preparation = nil
      }
      return (output, state.task, state.pendingRedirect, state.timer, state.preparation)
    }
    guard let (output, task, pendingRedirect, timer, preparation) = taken else { return }
    timer?.value.cancel()
    preparation?.cancel()
    if let task { registry.unregister(task.taskIdentifier) }
    if let pendingRedirect {
      pendingRedirect(nil)
    } else if cancellingTask, let task {
      control.async { task.cancel() }
    }
    if let error { output.finish(throwing: error) } else { output.finish() }
  }
}
