import Dispatch
import Testing

@testable import Magpie

/// The limiter that decodes and processing wait in: its limit, priority
/// order, priority changes while waiting, and cancellation while waiting.
@Suite struct WorkLimiterTests {
  /// One running item that holds the only slot until `open()`.
  private final class Blocker: Sendable {
    let gate = DispatchSemaphore(value: 0)
    let started = AsyncCounter()
    let task: Task<Int, any Error>

    init(_ limiter: WorkLimiter) {
      let (gate, started) = (gate, started)
      task = Task {
        try await limiter.run { () throws(MagpieError) -> Int in
          started.increment()
          gate.wait()
          return 0
        }
      }
    }

    func open() { gate.signal() }
  }

  /// Queues items one after another (each in line before the next), so
  /// their arrival order is known; returns their tasks and tickets.
  private func queue(
    _ items: [(String, ImageRequest.Priority)], on limiter: WorkLimiter, recording order: Locked<[String]>
  ) async -> ([Task<Int, any Error>], Locked<[String: WorkLimiter.Ticket]>) {
    let tickets = Locked<[String: WorkLimiter.Ticket]>([:])
    let queued = AsyncCounter()
    var tasks: [Task<Int, any Error>] = []
    for (index, (name, priority)) in items.enumerated() {
      tasks.append(
        Task {
          try await limiter.run(
            priority: priority,
            queued: { ticket in
              tickets.withLock { $0[name] = ticket }
              queued.increment()
            }
          ) { () throws(MagpieError) -> Int in
            order.withLock { $0.append(name) }
            return index
          }
        })
      await queued.wait(for: index + 1)
    }
    return (tasks, tickets)
  }

  @Test func waitingWorkStartsHighestPriorityFirstThenOldest() async throws {
    let limiter = WorkLimiter(label: "test.order", limit: 1, stage: .decode)
    let blocker = Blocker(limiter)
    await blocker.started.wait(for: 1)
    let order = Locked<[String]>([])
    let (tasks, _) = await queue(
      [("low", .low), ("normal-1", .normal), ("high", .high), ("normal-2", .normal)], on: limiter, recording: order)
    blocker.open()
    for task in tasks { _ = try await task.value }
    _ = try await blocker.task.value
    #expect(order.value == ["high", "normal-1", "normal-2", "low"])
  }

  @Test func raisingAWaitingItemsPriorityMovesItAhead() async throws {
    let limiter = WorkLimiter(label: "test.raise", limit: 1, stage: .decode)
    let blocker = Blocker(limiter)
    await blocker.started.wait(for: 1)
    let order = Locked<[String]>([])
    let (tasks, tickets) = await queue([("a", .low), ("b", .normal), ("c", .high)], on: limiter, recording: order)
    let ticket = try #require(tickets.value["a"])
    limiter.setPriority(.veryHigh, for: ticket)
    blocker.open()
    for task in tasks { _ = try await task.value }
    _ = try await blocker.task.value
    #expect(order.value == ["a", "c", "b"])
  }

  @Test func cancelledWhileWaitingGivesUpItsTurn() async throws {
    let limiter = WorkLimiter(label: "test.cancel", limit: 1, stage: .decode)
    let blocker = Blocker(limiter)
    await blocker.started.wait(for: 1)
    let order = Locked<[String]>([])
    let (tasks, _) = await queue([("gone", .high), ("kept", .normal)], on: limiter, recording: order)
    tasks[0].cancel()
    await #expect(throws: MagpieError.self) { _ = try await tasks[0].value }
    blocker.open()
    #expect(try await tasks[1].value == 1)
    _ = try await blocker.task.value
    #expect(order.value == ["kept"])
  }
}
