/// One ``CurlDataLoader`` load's bookkeeping between its caller, the
/// downloader's line and the libcurl threads: which thread took it, and
/// what its end gives back (the thread's count, the slot in the line).
final class CurlLoad: Sendable {
  /// Where the load stands: not yet on a thread, on one, or ended.
  private enum Placement {
    case waiting
    case on(thread: Int)
    case ended
  }

  let transfer: CurlTransfer
  private let slot: TransferQueue.Slot?
  private let placement = Lock(Placement.waiting)
  private let balance: Lock<CurlDriverBalance>
  private let drivers: [CurlMultiDriver]

  init(
    _ transfer: CurlTransfer, slot: TransferQueue.Slot?, balance: Lock<CurlDriverBalance>,
    drivers: [CurlMultiDriver]
  ) {
    self.transfer = transfer
    self.slot = slot
    self.balance = balance
    self.drivers = drivers
  }

  /// The thread's driver the load goes to, counted on it; `nil` when the
  /// load has already ended.
  func assign() -> CurlMultiDriver? {
    let balance = balance
    let thread = placement.withLock { placement -> Int? in
      guard case .waiting = placement else { return nil }
      let thread = balance.withLock { $0.assign() }
      placement = .on(thread: thread)
      return thread
    }
    return thread.map { drivers[$0] }
  }

  /// The caller left: a load on a thread is stopped there (its end follows
  /// from that thread); one still waiting in line ends now.
  func cancel() {
    transfer.cancel()
    let thread = placement.withLock { placement -> Int? in
      if case .on(let thread) = placement { return thread }
      return nil
    }
    if let thread {
      drivers[thread].send(.cancel(transfer.id))
    } else if slot?.release() ?? true {
      // Never started (or its start is refused: it sees the cancellation).
      transfer.finish(MagpieError(.cancelled, "the load was cancelled"))
    }
  }

  /// The load's events ended: its thread's count goes down and its slot
  /// goes to the next load in line (begun on this thread, as a rule the
  /// libcurl thread that ended this one). `cancelled`: the caller dropped
  /// the stream, so the transfer is stopped too.
  func ended(cancelled: Bool) {
    let thread = placement.withLock { placement -> Int? in
      defer { placement = .ended }
      if case .on(let thread) = placement { return thread }
      return nil
    }
    if let thread { balance.withLock { $0.release(thread) } }
    if cancelled {
      transfer.cancel()
      if let thread { drivers[thread].send(.cancel(transfer.id)) }
    }
    slot?.release()
  }
}
