/// The prefetcher's bookkeeping as a value: requests waiting, loads
/// running, pause, stops and the outcome lists. Each event returns what
/// the ``ImagePrefetcher`` must do (start a load, cancel tasks, resume
/// waiters); it runs under the prefetcher's lock and is tested
/// synchronously.
struct PrefetchQueue {
  /// One request and the key a stop finds it by.
  struct Entry {
    let id: Int
    let request: ImageRequest
    let key: ImageCacheKey
  }

  /// How one request ended.
  enum Outcome {
    case finished, skipped, failed
  }

  /// Most recent requests kept per outcome list (the counts stay exact).
  static let reportCapacity = 1024

  let limit: Int
  private(set) var pending: [Entry] = []
  /// Index of the next pending entry (a queue without O(n) removals).
  private var head = 0
  /// Loads started, with their task once it exists.
  private(set) var running: [Int: (entry: Entry, task: ImageTask?)] = [:]
  private(set) var isPaused = false
  private(set) var progress = ImagePrefetcher.Progress(total: 0, finished: 0, skipped: 0, failed: 0)
  private(set) var report = ImagePrefetcher.Report()
  private var nextID = 0

  init(limit: Int) { self.limit = max(1, limit) }

  /// Queues `requests`, keyed by `keys` (the same order).
  mutating func add(_ requests: [ImageRequest], keys: [ImageCacheKey]) {
    for (request, key) in zip(requests, keys) {
      pending.append(Entry(id: nextID, request: request, key: key))
      nextID += 1
    }
    progress.total += requests.count
  }

  /// The next entry to start, now counted as running; `nil` while paused,
  /// full or empty.
  mutating func next() -> Entry? {
    guard !isPaused, running.count < limit, head < pending.count else { return nil }
    let entry = pending[head]
    head += 1
    if head == pending.count {
      pending = []
      head = 0
    }
    running[entry.id] = (entry, nil)
    return entry
  }

  /// Keeps `task` for entry `id`; `false` when the entry already ended
  /// or was stopped meanwhile (the caller cancels the task).
  mutating func attach(_ task: ImageTask, to id: Int) -> Bool {
    guard running[id] != nil, running[id]?.task == nil else { return false }
    running[id]?.task = task
    return true
  }

  /// Entry `id` ended with `outcome`; `nil` when a stop already counted it.
  mutating func complete(_ id: Int, _ outcome: Outcome) -> ImagePrefetcher.Progress? {
    guard let (entry, _) = running.removeValue(forKey: id) else { return nil }
    record(entry.request, outcome)
    return progress
  }

  /// Stops the entries whose key is in `keys` (all with `nil`): waiting
  /// ones are dropped, running ones returned to cancel; each counts as
  /// failed now.
  mutating func stop(keys: Set<ImageCacheKey>?) -> [ImageTask] {
    let waiting = pending[head...]
    let dropped = waiting.filter { keys?.contains($0.key) ?? true }
    pending = waiting.filter { !(keys?.contains($0.key) ?? true) }
    head = 0
    for entry in dropped { record(entry.request, .failed) }
    var tasks: [ImageTask] = []
    for (id, load) in running where keys?.contains(load.entry.key) ?? true {
      running[id] = nil
      record(load.entry.request, .failed)
      if let task = load.task { tasks.append(task) }
    }
    return tasks
  }

  /// Pauses or resumes starting loads (running ones go on).
  mutating func setPaused(_ paused: Bool) { isPaused = paused }

  /// Whether every request queued so far has an outcome.
  var isDone: Bool { running.isEmpty && head == pending.count && progress.completed >= progress.total }

  private mutating func record(_ request: ImageRequest, _ outcome: Outcome) {
    switch outcome {
    case .finished:
      progress.finished += 1
      Self.append(request, to: &report.finished)
    case .skipped:
      progress.skipped += 1
      Self.append(request, to: &report.skipped)
    case .failed:
      progress.failed += 1
      Self.append(request, to: &report.failed)
    }
  }

  private static func append(_ request: ImageRequest, to list: inout [ImageRequest]) {
    if list.count == reportCapacity { list.removeFirst(reportCapacity / 4) }
    list.append(request)
  }
}
