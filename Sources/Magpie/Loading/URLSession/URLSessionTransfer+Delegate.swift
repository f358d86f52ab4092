import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransfer {
  // MARK: Delegate events (on the session's serial delegate queue)

  func didReceive(_ response: URLResponse) {
    guard let response = response as? HTTPURLResponse else {
      end(MagpieError(.invalidResponse, "the answer was not an HTTP response"), cancellingTask: true)
      return
    }
    let outcome = state.withLock { (state: inout State) -> Result<Output, MagpieError>? in
      guard let output = state.output else { return nil }
      state.deadline.touch()
      do throws(MagpieError) {
        try ResponseHeadParser.check(response, maximumHeaderSize: configuration.maximumHeaderSize)
        try state.validator.accept(ResponseHead(response))
        return .success(output)
      } catch {
        return .failure(error)
      }
    }
    deliver(outcome, .response(response))
  }

  func didReceive(_ data: Data) {
    let outcome = state.withLock {
      (state: inout State) -> Result<(Output, DataLoadingEvent?), MagpieError>? in
      guard let output = state.output else { return nil }
      state.deadline.touch()
      do throws(MagpieError) {
        return .success((output, try state.validator.accept(data)))
      } catch {
        return .failure(error)
      }
    }
    switch outcome {
    case .success(let (output, event?))?: output.yield(event)
    case .failure(let error)?: end(error, cancellingTask: true)
    default: break
    }
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
    let outcome = state.withLock {
      (state: inout State) -> Result<(Output, DataLoadingEvent?), MagpieError>? in
      guard let output = state.output else { return nil }
      do throws(MagpieError) {
        return .success((output, try state.validator.finish()))
      } catch {
        return .failure(error)
      }
    }
    switch outcome {
    case .success(let (output, event?))?:
      output.yield(event)
      end(nil, cancellingTask: false)
    case .failure(let error)?: end(error, cancellingTask: false)
    default: end(nil, cancellingTask: false)
    }
  }

  /// Yields `event` when the checks passed, ends the transfer when they
  /// failed. Never under the lock: a yield resumes the reading task, which
  /// takes the task's own lock, and a cancelled reading task holds that
  /// lock while its cancellation handler ends the transfer under this one.
  private func deliver(_ outcome: Result<Output, MagpieError>?, _ event: DataLoadingEvent) {
    switch outcome {
    case .success(let output)?: output.yield(event)
    case .failure(let error)?: end(error, cancellingTask: true)
    case nil: break
    }
  }
}
