@testable import Magpie

/// Keeps the latest counts an ``ImageManager``'s engine reports (its
/// ``EngineEvent``s) and lets a test wait, without sleeping, until a count
/// is reached: how tests know every request has joined its stage or queued
/// for a slot.
final class EngineEventLog: Sendable {
  private struct Watcher {
    var isSatisfied: @Sendable (Counts) -> Bool
    var continuation: CheckedContinuation<Void, Never>
  }

  /// The latest counts, by stage.
  struct Counts: Sendable {
    var subscribers: [EngineEvent.Stage: Int] = [:]
    var waiting: [EngineEvent.Stage: Int] = [:]
  }

  private let state = Lock<(counts: Counts, watchers: [Watcher])>((Counts(), []))

  /// What a manager's configuration takes as its `engineObserver`.
  var observer: @Sendable (EngineEvent) -> Void { { self.record($0) } }

  /// Returns once `stage`'s stages have had at least `count` subscribers.
  func waitUntil(subscribers count: Int, in stage: EngineEvent.Stage) async {
    await waitUntil { ($0.subscribers[stage] ?? 0) >= count }
  }

  /// Returns once at least `count` items have waited in `stage`'s line.
  func waitUntil(waiting count: Int, in stage: EngineEvent.Stage) async {
    await waitUntil { ($0.waiting[stage] ?? 0) >= count }
  }

  private func waitUntil(_ isSatisfied: @escaping @Sendable (Counts) -> Bool) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if isSatisfied(state.counts) { return true }
        state.watchers.append(Watcher(isSatisfied: isSatisfied, continuation: continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private func record(_ event: EngineEvent) {
    let satisfied = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      switch event {
      case .subscribed(let stage, let count): state.counts.subscribers[stage] = count
      case .queued(let stage, let count): state.counts.waiting[stage] = count
      case .taskMade: break
      }
      let counts = state.counts
      let ready = state.watchers.filter { $0.isSatisfied(counts) }.map(\.continuation)
      state.watchers.removeAll { $0.isSatisfied(counts) }
      return ready
    }
    for continuation in satisfied { continuation.resume() }
  }
}
