extension FaultOrigin {
  /// Routes, what was seen, waiters and open connections, behind the lock.
  struct State {
    var routes: [String: FaultRoute] = [:]
    var requests: [FaultOriginRequest] = []
    var closes: [String: Int] = [:]
    var served: [String: Int] = [:]
    var waiters: [Waiter] = []
    var descriptors: Set<Int32> = []
    var connections = 0
    var nextWaiter = 0
    var stopped = false
  }
}
