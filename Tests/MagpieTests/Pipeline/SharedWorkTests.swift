import Testing

@testable import Magpie

/// The rules of shared pipeline work (stages and jobs alike), as a value:
/// who joins, who gets the events and the outcome, when the work stops,
/// and the priority it runs at.
@Suite struct SharedWorkTests {
  typealias Work = SharedWork<Int, String>

  /// Joins as `name` at `priority`, waiting from the start when `waiting`;
  /// records an issue when the work is closed.
  private func join(
    _ work: inout Work, _ name: String, _ priority: ImageRequest.Priority = .normal, waiting: Bool = false
  ) -> (id: Int, newPriority: ImageRequest.Priority?) {
    guard let joined = work.join(name, priority: priority, waiting: waiting) else {
      Issue.record("the work was closed")
      return (-1, nil)
    }
    return joined
  }

  @Test func everySubscriberGetsTheOutcomeWhetherItWaitedBeforeOrAfter() throws {
    var work = Work(priority: .normal)
    let early = join(&work, "early").id
    let late = join(&work, "late").id
    guard case .wait = work.wait(early, attach: { $0 += " waiting" }) else {
      Issue.record("early did not wait")
      return
    }
    #expect(work.finish(.success(7)) == ["early waiting"])
    #expect(work.isClosed)
    // Closed: a new request starts new work instead of joining.
    #expect(work.join("new", priority: .normal, waiting: true) == nil)
    guard case .deliver(let result) = work.wait(late, attach: { _ in }) else {
      Issue.record("late waited")
      return
    }
    #expect(try result.get() == 7)
    #expect(work.subscriberCount == 0)
  }

  @Test func subscribersWaitingFromTheStartGetTheOutcomeWhenItComes() {
    var work = Work(priority: .normal)
    _ = join(&work, "a", waiting: true)
    _ = join(&work, "b", waiting: true)
    #expect(Set(work.finish(.failure(MagpieError(.network, "down")))) == ["a", "b"])
    // Finishing twice delivers nothing twice.
    #expect(work.finish(.success(1)).isEmpty)
  }

  @Test func anEventReachesEverySubscriberWhileTheWorkRuns() {
    var work = Work(priority: .normal)
    let ids = ["a", "b", "c"].map { join(&work, $0).id }
    #expect(Set(work.subscribers) == ["a", "b", "c"])
    _ = work.leave(ids[1])
    #expect(Set(work.subscribers) == ["a", "c"])
    _ = work.finish(.success(1))
    #expect(work.subscribers.isEmpty)
  }

  @Test func theWorkStopsOnlyWhenTheLastSubscriberLeaves() throws {
    var work = Work(priority: .normal)
    let ids = (0..<3).map { join(&work, "s\($0)").id }
    let first = work.leave(ids[0])
    #expect(first.subscriber == "s0")
    #expect(!first.cancelsWork)
    #expect(!work.leave(ids[1]).cancelsWork)
    let last = work.leave(ids[2])
    #expect(last.cancelsWork)
    #expect(last.subscriber == "s2")
    #expect(work.isClosed)
    // Leaving twice, or finishing work nobody waits for, does nothing.
    #expect(!work.leave(ids[2]).cancelsWork)
    #expect(work.finish(.success(1)).isEmpty)
  }

  @Test func workAbandonedByEveryoneIsNotJoinedAgain() {
    var work = Work(priority: .normal)
    let only = join(&work, "only").id
    #expect(work.leave(only).cancelsWork)
    // The key starts fresh: the caller makes new work.
    #expect(work.join("again", priority: .normal, waiting: false) == nil)
  }

  @Test func aSubscriberThatLeftBeforeWaitingIsToldSo() throws {
    var work = Work(priority: .normal)
    let keep = join(&work, "keep").id
    let gone = join(&work, "gone").id
    #expect(work.leave(gone).subscriber == "gone")
    guard case .cancelled = work.wait(gone, attach: { _ in }) else {
      Issue.record("a departed subscriber waited")
      return
    }
    guard case .wait = work.wait(keep, attach: { _ in }) else {
      Issue.record("keep did not wait")
      return
    }
  }

  @Test func theWorkRunsAtItsHighestSubscribersPriority() throws {
    var work = Work(priority: .low)
    let low = join(&work, "low", .low)
    #expect(low.newPriority == nil)
    let high = join(&work, "high", .high)
    #expect(high.newPriority == .high)
    #expect(work.priority == .high)
    // Raising the low one to high changes nothing; lowering the high one does.
    #expect(work.setPriority(.high, of: low.id) == nil)
    #expect(work.setPriority(.veryLow, of: high.id) == nil)
    #expect(work.setPriority(.normal, of: low.id) == .normal)
    // The highest leaving lowers the work to the next.
    #expect(work.leave(low.id).newPriority == .veryLow)
    #expect(work.priority == .veryLow)
    // Closed work takes no priority changes.
    _ = work.finish(.success(1))
    #expect(work.setPriority(.veryHigh, of: high.id) == nil)
  }
}
