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

  /// The heap starts what a scan of the whole line would, through many
  /// enqueues, priority changes (each leaves a skipped entry behind) and
  /// removals, in both orders.
  @Test(arguments: [WorkQueue.Order.fifo, .lifo])
  func startsWhatAFullScanWouldThroughManyChanges(order: WorkQueue.Order) {
    var queue = WorkQueue(maximumRunning: 3, order: order)
    var model: [(id: Int, priority: ImageRequest.Priority, sequence: Int)] = []
    var running: Set<Int> = []
    var sequence = 0
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    func modelStarts() -> [Int] {
      var started: [Int] = []
      while running.count < 3, !model.isEmpty {
        let best = model.indices.min { a, b in
          let (x, y) = (model[a], model[b])
          if x.priority != y.priority { return x.priority > y.priority }
          return order == .fifo ? x.sequence < y.sequence : x.sequence > y.sequence
        }!
        let item = model.remove(at: best)
        running.insert(item.id)
        started.append(item.id)
      }
      return started
    }
    let priorities = ImageRequest.Priority.allCases
    for id in 0..<3000 {
      switch next(4) {
      case 0, 1:
        let priority = priorities[next(priorities.count)]
        model.append((id, priority, sequence))
        sequence += 1
        #expect(queue.enqueue(id, priority: priority) == modelStarts())
      case 2:
        guard !model.isEmpty else { continue }
        let index = next(model.count)
        let priority = priorities[next(priorities.count)]
        queue.setPriority(model[index].id, priority)
        model[index].priority = priority
      default:
        let victims = Array(running) + model.map(\.id)
        guard !victims.isEmpty else { continue }
        let victim = victims[next(victims.count)]
        running.remove(victim)
        model.removeAll { $0.id == victim }
        #expect(queue.remove(victim) == modelStarts())
      }
      #expect(queue.waitingCount == model.count)
    }
  }
}
