import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransfer {
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
      guard state.output != nil else { return .done }
      state.redirects += 1
      state.deadline.touch()
      let from = state.request.url.redactedDescription(or: "?")
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
        "the redirect handler refused the \(status) redirect to \(redirect.proposedRequest.url.redactedDescription(or: "?"))",
        statusCode: status, refusal: .redirectHandler),
      cancellingTask: true)
  }

  private func withBackstopTimeout(_ request: URLRequest) -> URLRequest {
    var request = request
    request.timeoutInterval = Double(configuration.resourceTimeout.components.seconds) + 5
    return request
  }
}
