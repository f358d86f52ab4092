import Testing

@testable import Magpie

/// The line downloads wait in: a freed slot starts the next transfer on
/// the thread that frees it, in priority order, and a place given up
/// never starts.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct TransferQueueTests {
  /// Records which start actions ran, in order.
  final class Starts: Sendable {
    private let log = Lock<[String]>([])
    func action(_ name: String) -> @Sendable () -> Void { { self.log.withLock { $0.append(name) } } }
    var ran: [String] { log.withLock { $0 } }
  }

  @Test func aFreedSlotStartsTheNextTransferOnTheFreeingThread() {
    let queue = TransferQueue(maximumRunning: 1, order: .fifo)
    let starts = Starts()
    let slots = ["a", "b", "c"].map { name in
      let slot = TransferQueue.Slot(queue: queue, priority: .normal)
      slot.enqueue(onStart: starts.action(name))
      return slot
    }
    #expect(starts.ran == ["a"])
    #expect(queue.waitingCount == 2)
    // Synchronously, within the release: no task is woken to start it.
    slots[0].release()
    #expect(starts.ran == ["a", "b"])
    slots[1].release()
    slots[2].release()
    #expect(starts.ran == ["a", "b", "c"])
    #expect(queue.runningCount == 0 && queue.waitingCount == 0)
  }

  @Test func aWaitingTransferMovesWithItsPriorityAndAGivenUpPlaceNeverStarts() {
    let queue = TransferQueue(maximumRunning: 1, order: .fifo)
    let starts = Starts()
    let slots = ["first", "b", "c", "d"].map { name in
      let slot = TransferQueue.Slot(queue: queue, priority: .normal)
      slot.enqueue(onStart: starts.action(name))
      return slot
    }
    slots[3].setPriority(.high)
    #expect(slots[2].release())
    slots[0].release()
    slots[3].release()
    slots[1].release()
    #expect(starts.ran == ["first", "d", "b"])
    // Releasing again changes nothing.
    #expect(!slots[0].release())
    #expect(queue.runningCount == 0 && queue.waitingCount == 0)
  }

  @Test func aPriorityOrReleaseBeforeJoiningTheLineIsKept() {
    let queue = TransferQueue(maximumRunning: 1, order: .lifo)
    let starts = Starts()
    let running = TransferQueue.Slot(queue: queue, priority: .normal)
    running.enqueue(onStart: starts.action("running"))
    let early = TransferQueue.Slot(queue: queue, priority: .normal)
    early.setPriority(.veryHigh)
    early.enqueue(onStart: starts.action("early"))
    let late = TransferQueue.Slot(queue: queue, priority: .normal)
    late.enqueue(onStart: starts.action("late"))
    let released = TransferQueue.Slot(queue: queue, priority: .veryHigh)
    released.release()
    released.enqueue(onStart: starts.action("released"))
    running.release()
    early.release()
    late.release()
    #expect(starts.ran == ["running", "early", "late"])
  }

  @Test func cancellingAWaitForTheTurnGivesThePlaceUp() async throws {
    let events = EngineEventLog()
    let queue = TransferQueue(maximumRunning: 1, order: .fifo, observer: events.observer)
    let holder = TransferQueue.Slot(queue: queue, priority: .normal)
    try await holder.waitForTurn()
    let waiting = TransferQueue.Slot(queue: queue, priority: .normal)
    let task = Task { try await waiting.waitForTurn() }
    await events.waitUntil(waiting: 1, in: .download)
    task.cancel()
    let result = await task.result
    #expect((result.failure as? MagpieError)?.code == .cancelled)
    #expect(queue.waitingCount == 0)
    // The holder's release frees the slot for nobody.
    holder.release()
    #expect(queue.runningCount == 0)
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
