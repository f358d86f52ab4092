import Testing

@testable import Magpie

/// The count of running CPU work that decides whether libwebp gets its
/// helper thread, as a value on its own (the shared one counts the whole
/// test run's work).
@Suite struct CodecLoadTests {
  private struct Failure: Error {}

  @Test func aCoreIsIdleUntilTheCountReachesTheCores() {
    let load = CodecLoad(cores: 2)
    #expect(load.hasIdleCore)
    load.counting {
      #expect(load.hasIdleCore)
      load.counting { #expect(!load.hasIdleCore) }
      #expect(load.hasIdleCore)
    }
    #expect(load.hasIdleCore)
  }

  @Test func oneCoreIsBusyWithOneJob() {
    let load = CodecLoad(cores: 1)
    #expect(load.hasIdleCore)
    load.counting { #expect(!load.hasIdleCore) }
    #expect(load.hasIdleCore)
  }

  @Test func aThrowingJobStopsCounting() {
    let load = CodecLoad(cores: 1)
    #expect(throws: Failure.self) {
      try load.counting { () throws(Failure) in throw Failure() }
    }
    #expect(load.hasIdleCore)
  }

  @Test func countingReturnsTheJobsResult() {
    #expect(CodecLoad(cores: 4).counting { 42 } == 42)
  }
}
