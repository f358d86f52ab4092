import Testing

@testable import Magpie

@Suite struct WorkQueueTests {
  @Test func startsAtMostTheLimitThenByPriority() {
    var queue = WorkQueue(maximumRunning: 2, order: .fifo)
    #expect(queue.enqueue(1, priority: .normal) == [1])
    #expect(queue.enqueue(2, priority: .normal) == [2])
    #expect(queue.enqueue(3, priority: .low).isEmpty)
    #expect(queue.enqueue(4, priority: .normal).isEmpty)
    #expect(queue.enqueue(5, priority: .veryHigh).isEmpty)
    #expect(queue.waitingInStartOrder == [5, 4, 3])
    #expect(queue.remove(1) == [5])
    #expect(queue.remove(2) == [4])
    #expect(queue.remove(5) == [3])
  }

  @Test func lifoStartsTheNewestFirst() {
    var queue = WorkQueue(maximumRunning: 1, order: .lifo)
    _ = queue.enqueue(1, priority: .normal)
    for id in 2...5 { _ = queue.enqueue(id, priority: .normal) }
    #expect(queue.waitingInStartOrder == [5, 4, 3, 2])
    #expect(queue.remove(1) == [5])
  }

  @Test func changingPriorityReordersWaitingOnly() {
    var queue = WorkQueue(maximumRunning: 1, order: .fifo)
    _ = queue.enqueue(1, priority: .normal)
    for id in 2...4 { _ = queue.enqueue(id, priority: .normal) }
    queue.setPriority(4, .high)
    queue.setPriority(1, .veryLow)  // running: no effect
    #expect(queue.waitingInStartOrder == [4, 2, 3])
    queue.setPriority(2, .veryLow)
    #expect(queue.waitingInStartOrder == [4, 3, 2])
  }

  @Test func cancellingAWaitingDownloadFreesNothingButItsPlace() {
    var queue = WorkQueue(maximumRunning: 1, order: .fifo)
    _ = queue.enqueue(1, priority: .normal)
    _ = queue.enqueue(2, priority: .normal)
    #expect(queue.remove(2).isEmpty)
    #expect(queue.isWaiting(2) == false)
    #expect(queue.remove(1).isEmpty)
    #expect(queue.running.isEmpty)
  }

  @Test func raisingTheLimitStartsWaitingWorkAndLoweringItStopsNone() {
    var queue = WorkQueue(maximumRunning: 1, order: .fifo)
    #expect(queue.enqueue(1, priority: .normal) == [1])
    #expect(queue.enqueue(2, priority: .normal).isEmpty)
    #expect(queue.enqueue(3, priority: .high).isEmpty)
    #expect(queue.setMaximumRunning(3) == [3, 2])
    #expect(queue.setMaximumRunning(1).isEmpty)
    #expect(queue.running == [1, 2, 3])
    #expect(queue.enqueue(4, priority: .normal).isEmpty)
    #expect(queue.remove(1).isEmpty)
    #expect(queue.remove(2).isEmpty)
    #expect(queue.remove(3) == [4])
  }
}
