import Testing

@testable import MagpieServer

@Suite("AdmissionQueue and AdmissionGate")
struct AdmissionQueueTests {
  @Test("runs up to the concurrency, queues up to the capacity in order, rejects the rest")
  func rules() {
    var queue = AdmissionQueue(concurrency: 2, capacity: 2)
    let step1 = queue.arrive(1)
    #expect(step1 == .run)
    let step2 = queue.arrive(2)
    #expect(step2 == .run)
    let step3 = queue.arrive(3)
    #expect(step3 == .wait)
    let step4 = queue.arrive(4)
    #expect(step4 == .wait)
    let step5 = queue.arrive(5)
    #expect(step5 == .reject)
    let step6 = queue.finish()
    #expect(step6 == 3)  // the slot passes to the first waiter
    #expect(queue.running == 2)
    let step7 = queue.abandon(4)
    #expect(step7)
    let step8 = queue.abandon(4)
    #expect(!step8)
    let step9 = queue.finish()
    #expect(step9 == nil)
    let step10 = queue.finish()
    #expect(step10 == nil)
    #expect(queue.running == 0)
    // Nobody jumps the queue: with a waiter, a new arrival waits too.
    var busy = AdmissionQueue(concurrency: 1, capacity: 1)
    let step11 = busy.arrive(1)
    #expect(step11 == .run)
    let step12 = busy.arrive(2)
    #expect(step12 == .wait)
    let step13 = busy.finish()
    #expect(step13 == 2)
    let step14 = busy.arrive(3)
    #expect(step14 == .wait)
  }

  @Test("the gate runs a waiter when a slot frees, refuses when full, and drops a cancelled waiter")
  func gate() async {
    let gate = AdmissionGate(concurrency: 1, capacity: 1)
    let hold = AsyncGate()
    let first = Task { await gate.run { await hold.wait() } }
    try? await hold.untilWaiting(1)
    let second = Task { await gate.run { 2 } }
    while gate.load.waiting == 0 { await Task.yield() }
    #expect(await gate.run { 3 } == nil)  // full
    hold.open()
    #expect(await first.value != nil)
    #expect(await second.value == 2)
    #expect(gate.load == (running: 0, waiting: 0))

    let holdAgain = AsyncGate()
    let running = Task { await gate.run { await holdAgain.wait() } }
    try? await holdAgain.untilWaiting(1)
    let cancelled = Task { await gate.run { 4 } }
    while gate.load.waiting == 0 { await Task.yield() }
    cancelled.cancel()
    #expect(await cancelled.value == nil)
    #expect(gate.load.waiting == 0)
    holdAgain.open()
    _ = await running.value
    #expect(gate.load == (running: 0, waiting: 0))
  }
}
