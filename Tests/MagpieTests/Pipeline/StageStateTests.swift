import Testing

@testable import Magpie

/// The rules of a shared pipeline stage, as a value: who waits, who gets
/// the outcome, when the work stops, and the priority it waits at.
@Suite struct StageStateTests {
  typealias State = StageState<Int, String>

  /// Subscribes at `priority`; records an issue when the stage is closed.
  private func join(_ state: inout State, _ priority: DownloadPriority = .normal) -> (
    id: Int, newPriority: DownloadPriority?
  ) {
    guard let joined = state.subscribe(priority: priority) else {
      Issue.record("the stage was closed")
      return (-1, nil)
    }
    return joined
  }

  @Test func everySubscriberGetsTheOutcomeWhetherItWaitedBeforeOrAfter() throws {
    var state = State(priority: .normal)
    let early = join(&state, .normal).id
    let late = join(&state, .normal).id
    guard case .wait = state.wait(early, with: "early") else { Issue.record("early did not wait"); return }
    #expect(state.finish(.success(7)) == ["early"])
    #expect(state.isClosed)
    // Closed: a new request starts a new stage instead of joining.
    #expect(state.subscribe(priority: .normal) == nil)
    guard case .deliver(let result) = state.wait(late, with: "late") else { Issue.record("late waited"); return }
    #expect(try result.get() == 7)
    #expect(state.subscriberCount == 0)
  }

  @Test func theWorkStopsOnlyWhenTheLastSubscriberLeaves() throws {
    var state = State(priority: .normal)
    let ids = (0..<3).map { _ in join(&state).id }
    for (index, id) in ids.enumerated() { _ = state.wait(id, with: "s\(index)") }
    let first = state.leave(ids[0])
    #expect(first.waiter == "s0")
    #expect(!first.cancelsWork)
    #expect(!state.leave(ids[1]).cancelsWork)
    let last = state.leave(ids[2])
    #expect(last.cancelsWork)
    #expect(last.waiter == "s2")
    #expect(state.isClosed)
    // Leaving twice, or finishing work nobody waits for, does nothing.
    #expect(!state.leave(ids[2]).cancelsWork)
    #expect(state.finish(.success(1)).isEmpty)
  }

  @Test func aSubscriberThatLeftBeforeWaitingIsToldSo() throws {
    var state = State(priority: .normal)
    let keep = join(&state, .normal).id
    let gone = join(&state, .normal).id
    #expect(state.leave(gone).waiter == nil)
    guard case .cancelled = state.wait(gone, with: "gone") else { Issue.record("a departed subscriber waited"); return }
    guard case .wait = state.wait(keep, with: "keep") else { Issue.record("keep did not wait"); return }
  }

  @Test func theStageWaitsAtItsHighestSubscribersPriority() throws {
    var state = State(priority: .low)
    let low = join(&state, .low)
    #expect(low.newPriority == nil)
    let high = join(&state, .high)
    #expect(high.newPriority == .high)
    #expect(state.priority == .high)
    // Raising the low one to high changes nothing; lowering the high one does.
    #expect(state.setPriority(.high, of: low.id) == nil)
    #expect(state.setPriority(.veryLow, of: high.id) == nil)
    #expect(state.setPriority(.normal, of: low.id) == .normal)
    // The highest leaving lowers the stage to the next.
    #expect(state.leave(low.id).newPriority == .veryLow)
    #expect(state.priority == .veryLow)
  }
}
