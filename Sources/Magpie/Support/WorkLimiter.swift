import Dispatch
import Synchronization

/// Runs blocking CPU work (decoding, processing) on its own dispatch queue,
/// at most `limit` items at once, so it never occupies Swift's cooperative
/// threads and never runs more than the stage allows. Waiting work starts
/// highest priority first, oldest first among equals (a ``WorkQueue``), and
/// a waiting item's priority can change through its ``Ticket``. Waiting
/// callers are suspended, not blocked; a caller cancelled while waiting
/// gives up its turn.
///
/// A thread that finishes an item goes straight on to the next waiting one,
/// and the caller of each is resumed only when its work is done: one
/// wake-up an item. (Handing the slot back to the next caller's task and
/// that task dispatching its own work took three, and each wake-up can
/// leave the woken thread queued behind a running decode while the other
/// core idles.)
final class WorkLimiter: Sendable {
  /// A place in the queue, handed out before the work waits, to change its
  /// priority while it waits.
  struct Ticket: Sendable, Hashable {
    fileprivate let id: Int
  }

  /// A waiting item: runs its work and resumes its caller (`true`), or
  /// resumes its caller cancelled (`false`).
  private typealias Job = @Sendable (_ run: Bool) -> Void

  private struct State {
    var queue: WorkQueue
    var jobs: [Int: Job] = [:]
    var nextID = 0

    /// The jobs of `ids`, which the queue has just started.
    mutating func takeJobs(_ ids: [Int]) -> [(id: Int, job: Job)] {
      ids.compactMap { id in jobs.removeValue(forKey: id).map { (id, $0) } }
    }
  }

  private let state: Lock<State>
  private let queue: DispatchQueue
  /// The stage it limits, as ``EngineEvent``s name it.
  private let stage: EngineEvent.Stage
  private let observer: (@Sendable (EngineEvent) -> Void)?

  /// A limiter running at most `limit` items of `stage` at once on a queue
  /// named `label`, reporting its line to `observer`.
  init(
    label: String, limit: Int, stage: EngineEvent.Stage, observer: (@Sendable (EngineEvent) -> Void)? = nil
  ) {
    state = Lock(State(queue: WorkQueue(maximumRunning: max(1, limit), order: .fifo)))
    queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    self.stage = stage
    self.observer = observer
  }

  /// Waits for a slot (ahead of waiting work of lower `priority`), runs
  /// `work` on the limiter's queue, and returns its result. `queued` gets
  /// the work's ticket once it is in line (or has started). Throws
  /// ``MagpieError/Code/cancelled`` if the task is cancelled before the work
  /// starts.
  func run<T: Sendable>(
    priority: ImageRequest.Priority = .normal, queued: ((Ticket) -> Void)? = nil,
    _ work: @escaping @Sendable () throws(MagpieError) -> T
  ) async throws(MagpieError) -> T {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, MagpieError>, Never>) in
        let job: Job = { run in
          guard run else { return continuation.resume(returning: .failure(Self.cancelled)) }
          do throws(MagpieError) {
            continuation.resume(returning: .success(try CodecLoad.shared.counting(work)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        enqueue(id, job, priority: priority, queued: queued)
      }
    } onCancel: {
      let job = state.withLock { state -> Job? in
        // Only waiting work gives up its turn; removing it frees no slot.
        guard state.queue.isWaiting(id), let job = state.jobs.removeValue(forKey: id) else { return nil }
        _ = state.queue.remove(id)
        return job
      }
      job?(false)
    }
    return try result.get()
  }

  /// Queues `work` (ahead of waiting work of lower `priority`) without a
  /// task waiting for it: `completion` gets its result on the limiter's
  /// queue, or ``MagpieError/Code/cancelled`` when it is withdrawn while
  /// it waits. Returns its ticket (to move or withdraw it).
  @discardableResult
  func submit<T: Sendable>(
    priority: ImageRequest.Priority, _ work: @escaping @Sendable () throws(MagpieError) -> T,
    completion: @escaping @Sendable (Result<T, MagpieError>) -> Void
  ) -> Ticket {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    let job: Job = { run in
      guard run else { return completion(.failure(Self.cancelled)) }
      do throws(MagpieError) {
        completion(.success(try CodecLoad.shared.counting(work)))
      } catch {
        completion(.failure(error))
      }
    }
    enqueue(id, job, priority: priority, queued: nil)
    return Ticket(id: id)
  }

  /// Withdraws submitted work that still waits (its completion gets
  /// ``MagpieError/Code/cancelled`` now); work already running finishes.
  func withdraw(_ ticket: Ticket) {
    let job = state.withLock { state -> Job? in
      guard state.queue.isWaiting(ticket.id), let job = state.jobs.removeValue(forKey: ticket.id) else { return nil }
      _ = state.queue.remove(ticket.id)
      return job
    }
    job?(false)
  }

  /// Moves waiting work to `priority`; work already running is unaffected.
  func setPriority(_ priority: ImageRequest.Priority, for ticket: Ticket) {
    state.withLock { $0.queue.setPriority(ticket.id, priority) }
  }

  private static let cancelled = MagpieError(.cancelled, "cancelled while waiting to run")

  private func enqueue(_ id: Int, _ job: @escaping Job, priority: ImageRequest.Priority, queued: ((Ticket) -> Void)?) {
    // Checked under the lock the cancellation handler also takes: it either
    // ran before (and this sees it) or finds the job waiting.
    let (accepted, started, waiting) = state.withLock { state -> (Bool, [(id: Int, job: Job)], Int) in
      if Task.isCancelled { return (false, [], 0) }
      state.jobs[id] = job
      let started = state.takeJobs(state.queue.enqueue(id, priority: priority))
      return (true, started, state.queue.waitingCount)
    }
    guard accepted else { return job(false) }
    observer?(.queued(stage, waiting: waiting))
    queued?(Ticket(id: id))
    for item in started { queue.async { self.drain(item) } }
  }

  /// Runs `first`, then whatever waiting work its slot starts, on this
  /// thread, until no work waits.
  private func drain(_ first: (id: Int, job: Job)) {
    var next: (id: Int, job: Job)? = first
    while let item = next {
      item.job(true)
      var started = state.withLock { $0.takeJobs($0.queue.remove(item.id)) }
      next = started.isEmpty ? nil : started.removeFirst()
      for other in started { queue.async { self.drain(other) } }
    }
  }
}
