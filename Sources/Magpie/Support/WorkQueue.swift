/// Which waiting work starts, and when: at most `maximumRunning` items at
/// once, highest priority first, then first-in-first-out or
/// last-in-first-out. Every stage of the pipeline queues this way:
/// downloads (``TransferQueue``), decodes and processing (``WorkLimiter``).
///
/// A plain value that takes an event and returns the items to start, so the
/// scheduling rules are tested synchronously; its owners keep one behind
/// their lock. Every event costs O(log n) in the waiting items (a heap; a
/// priority change adds an entry and leaves the old one to be skipped), so
/// a gallery that queues thousands of downloads at once does not pay for
/// each start with a scan of the line.
struct WorkQueue {
  /// The order among waiting items of equal priority.
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
  /// Each waiting item's current place, by id.
  private var waiting: [Int: Waiting] = [:]
  /// Places in start order; an entry no longer in `waiting` is skipped.
  private var line: BinaryHeap<Waiting>
  private(set) var running: Set<Int> = []
  private var nextSequence = 0

  init(maximumRunning: Int, order: Order) {
    precondition(maximumRunning > 0)
    self.maximumRunning = maximumRunning
    self.order = order
    line = BinaryHeap(by: Self.startsBefore(order))
  }

  /// Waiting ids in the order they would start.
  var waitingInStartOrder: [Int] {
    waiting.values.sorted(by: Self.startsBefore(order)).map(\.id)
  }

  /// Adds an item; returns the ids to start now.
  mutating func enqueue(_ id: Int, priority: ImageRequest.Priority) -> [Int] {
    let place = Waiting(id: id, priority: priority, sequence: nextSequence)
    nextSequence += 1
    waiting[id] = place
    line.push(place)
    return startReady()
  }

  /// Changes a waiting item's priority (running ones are unaffected).
  mutating func setPriority(_ id: Int, _ priority: ImageRequest.Priority) {
    guard var place = waiting[id], place.priority != priority else { return }
    place.priority = priority
    waiting[id] = place
    line.push(place)
    // Skipped entries pile up only under many changes; drop them then.
    if line.count > 2 * waiting.count + 64 { line.filter(isCurrent) }
  }

  /// A running item finished, or any item was cancelled; returns the ids
  /// to start now.
  mutating func remove(_ id: Int) -> [Int] {
    running.remove(id)
    waiting[id] = nil
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
  func isWaiting(_ id: Int) -> Bool { waiting[id] != nil }

  private func isCurrent(_ place: Waiting) -> Bool {
    guard let current = waiting[place.id] else { return false }
    return current.priority == place.priority && current.sequence == place.sequence
  }

  private mutating func startReady() -> [Int] {
    var started: [Int] = []
    while running.count < maximumRunning, let next = line.pop() {
      guard isCurrent(next) else { continue }
      waiting[next.id] = nil
      running.insert(next.id)
      started.append(next.id)
    }
    if waiting.isEmpty && line.count > 0 { line.filter { _ in false } }
    return started
  }

  private static func startsBefore(_ order: Order) -> (Waiting, Waiting) -> Bool {
    { a, b in
      if a.priority != b.priority { return a.priority > b.priority }
      return order == .fifo ? a.sequence < b.sequence : a.sequence > b.sequence
    }
  }
}
