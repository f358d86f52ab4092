/// Which waiting work starts, and when: at most `maximumRunning` items at
/// once, highest priority first, then first-in-first-out or
/// last-in-first-out. Every stage of the pipeline queues this way:
/// downloads (``ImageDownloader``), decodes and processing (``WorkLimiter``).
///
/// A plain value that takes an event and returns the items to start, so the
/// scheduling rules are tested synchronously; its owners keep one behind
/// their lock.
struct WorkQueue {
  /// The order among waiting downloads of equal priority.
  enum Order: Sendable {
    /// Oldest first.
    case fifo
    /// Newest first: what a scrolling list wants.
    case lifo
  }

  private struct Waiting {
    var id: Int
    var priority: ImageRequest.Priority
    var sequence: Int
  }

  private(set) var maximumRunning: Int
  let order: Order
  private var waiting: [Waiting] = []
  private(set) var running: Set<Int> = []
  private var nextSequence = 0

  init(maximumRunning: Int, order: Order) {
    precondition(maximumRunning > 0)
    self.maximumRunning = maximumRunning
    self.order = order
  }

  /// Waiting download ids in the order they would start.
  var waitingInStartOrder: [Int] {
    waiting.sorted(by: startsBefore).map(\.id)
  }

  /// Adds a download; returns the ids to start now.
  mutating func enqueue(_ id: Int, priority: ImageRequest.Priority) -> [Int] {
    waiting.append(Waiting(id: id, priority: priority, sequence: nextSequence))
    nextSequence += 1
    return startReady()
  }

  /// Changes a waiting download's priority (running ones are unaffected).
  mutating func setPriority(_ id: Int, _ priority: ImageRequest.Priority) {
    if let index = waiting.firstIndex(where: { $0.id == id }) { waiting[index].priority = priority }
  }

  /// A running download finished, or any download was cancelled; returns
  /// the ids to start now.
  mutating func remove(_ id: Int) -> [Int] {
    running.remove(id)
    waiting.removeAll { $0.id == id }
    return startReady()
  }

  /// Changes how many items run at once; returns the ids to start now (a
  /// lower limit stops nothing that runs, it only starts fewer).
  mutating func setMaximumRunning(_ limit: Int) -> [Int] {
    maximumRunning = max(1, limit)
    return startReady()
  }

  /// How many items wait.
  var waitingCount: Int { waiting.count }

  /// Whether `id` is waiting (not yet started).
  func isWaiting(_ id: Int) -> Bool { waiting.contains { $0.id == id } }

  private mutating func startReady() -> [Int] {
    var started: [Int] = []
    while running.count < maximumRunning, !waiting.isEmpty {
      var best = 0
      for index in waiting.indices.dropFirst() where startsBefore(waiting[index], waiting[best]) { best = index }
      let next = waiting.remove(at: best)
      running.insert(next.id)
      started.append(next.id)
    }
    return started
  }

  private func startsBefore(_ a: Waiting, _ b: Waiting) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    return order == .fifo ? a.sequence < b.sequence : a.sequence > b.sequence
  }
}
