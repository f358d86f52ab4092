/// Who may transform now: at most `concurrency` at once, at most
/// `capacity` more waiting in arrival order, the rest refused (503). A
/// value that takes an event and says what to do, tested synchronously.
struct AdmissionQueue: Sendable, Equatable {
  /// How many run at once.
  let concurrency: Int
  /// How many may wait.
  let capacity: Int
  /// How many run now.
  private(set) var running = 0
  /// Who waits, first come first.
  private(set) var waiting: [Int] = []

  /// What happens to an arrival.
  enum Decision: Equatable {
    /// Run now.
    case run
    /// Wait for a slot.
    case wait
    /// The queue is full: refuse.
    case reject
  }

  init(concurrency: Int, capacity: Int) {
    self.concurrency = max(1, concurrency)
    self.capacity = max(0, capacity)
  }

  /// Request `id` arrived.
  mutating func arrive(_ id: Int) -> Decision {
    if running < concurrency && waiting.isEmpty {
      running += 1
      return .run
    }
    guard waiting.count < capacity else { return .reject }
    waiting.append(id)
    return .wait
  }

  /// A running request finished: the waiter to run next, if any (its
  /// slot passes to it).
  mutating func finish() -> Int? {
    guard !waiting.isEmpty else {
      running = max(0, running - 1)
      return nil
    }
    return waiting.removeFirst()
  }

  /// A waiter gave up (cancelled, timed out). Returns whether it was
  /// still waiting; `false` means it was already given a slot, which it
  /// must then ``finish()``.
  mutating func abandon(_ id: Int) -> Bool {
    guard let index = waiting.firstIndex(of: id) else { return false }
    waiting.remove(at: index)
    return true
  }
}
