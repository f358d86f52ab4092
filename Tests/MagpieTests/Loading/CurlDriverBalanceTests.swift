import Testing

@testable import Magpie

/// How a ``CurlDataLoader`` spreads its transfers over its libcurl threads,
/// as a value.
@Suite struct CurlDriverBalanceTests {
  @Test func threadsFollowTheCoresAndTheConnectionLimit() {
    #expect(CurlDriverBalance.shares(maximumConnectionsPerHost: 6, cores: 2) == [3, 3])
    #expect(CurlDriverBalance.shares(maximumConnectionsPerHost: 5, cores: 16) == [3, 2])
    #expect(CurlDriverBalance.shares(maximumConnectionsPerHost: 6, cores: 1) == [6])
    // One connection to a host means one thread: a second could open a second.
    #expect(CurlDriverBalance.shares(maximumConnectionsPerHost: 1, cores: 8) == [1])
    #expect(CurlDriverBalance.shares(maximumConnectionsPerHost: 0, cores: 0) == [1])
    #expect(CurlDriverBalance(connectionsPerHost: []).connectionsPerHost == [1])
  }

  @Test func loadsOneAfterAnotherStayOnTheFirstThread() {
    var balance = CurlDriverBalance(connectionsPerHost: [3, 3])
    for _ in 0..<5 {
      let thread = balance.assign()
      #expect(thread == 0)
      balance.release(thread)
    }
  }

  @Test func loadsAtOnceSpreadByEachThreadsShareOfConnections() {
    var balance = CurlDriverBalance(connectionsPerHost: [3, 2])
    let threads = (0..<10).map { _ in balance.assign() }
    // 3 and 2 connections: 6 and 4 transfers, alternating while even.
    #expect(threads.filter { $0 == 0 }.count == 6)
    #expect(threads.filter { $0 == 1 }.count == 4)
    #expect(Array(threads.prefix(4)) == [0, 1, 0, 1])
    // The thread that frees up takes the next one.
    balance.release(1)
    balance.release(1)
    #expect(balance.assign() == 1)
    #expect(balance.transfers == [6, 3])
  }

  @Test func aReleaseWithNothingHeldIsIgnored() {
    var balance = CurlDriverBalance(connectionsPerHost: [3, 3])
    balance.release(1)
    #expect(balance.transfers == [0, 0])
  }
}
