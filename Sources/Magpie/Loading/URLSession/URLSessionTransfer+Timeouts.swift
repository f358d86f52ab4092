import Dispatch

extension URLSessionTransfer {
  private static let timerQueue = DispatchQueue(label: "magpie.urlsession-loader.timeouts")

  func scheduleTimer() {
    let item = DispatchWorkItem { [weak self] in self?.timerFired() }
    let expiry: UInt64? = state.withLock { state in
      guard state.output != nil else { return nil }
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
      guard state.output != nil else { return .done }
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
