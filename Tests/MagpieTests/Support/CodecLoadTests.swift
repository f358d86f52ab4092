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

  /// A codec splitting one image (libde265's rows) takes the caller's
  /// core and every idle one, within the machine and its own limit.
  @Test func threadsAreTheCallersCoreAndTheIdleOnes() {
    let load = CodecLoad(cores: 4)
    #expect(load.threads(limit: 8) == 4)
    #expect(load.threads(limit: 2) == 2)
    load.counting {
      #expect(load.threads(limit: 8) == 4)
      load.counting {
        load.counting {
          #expect(load.threads(limit: 8) == 2)
          load.counting { #expect(load.threads(limit: 8) == 1) }
        }
      }
    }
    #expect(CodecLoad(cores: 1).threads(limit: 4) == 1)
  }

  @Test func countingReturnsTheJobsResult() {
    #expect(CodecLoad(cores: 4).counting { 42 } == 42)
  }
}
