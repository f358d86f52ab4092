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
    let failure = state.withLock { (state: inout State) -> MagpieError? in
      guard let continuation = state.continuation else { return nil }
      state.deadline.touch()
      do throws(MagpieError) {
        try ResponseHeadParser.check(response, maximumHeaderSize: configuration.maximumHeaderSize)
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
}
