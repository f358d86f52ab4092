/// Which of a ``CurlDataLoader``'s libcurl threads takes the next transfer:
/// the one with the fewest transfers for each connection it may open,
/// the first on a tie, so that loads one after another stay on one thread
/// (and on its kept-alive connections) and only loads at the same time
/// spread out. A value, driven under the loader's lock.
struct CurlDriverBalance: Sendable, Equatable {
  /// Connections to one host each thread may open; they add up to the
  /// loader's ``DataLoaderConfiguration/maximumConnectionsPerHost``.
  let connectionsPerHost: [Int]
  /// Transfers each thread holds now.
  private(set) var transfers: [Int]

  /// The threads worth running for `maximumConnectionsPerHost` on a
  /// machine with `cores`, as the connections to one host each may open:
  /// one thread per core up to two (the libcurl thread is the loader's
  /// bottleneck on large bodies, and it shares the cores with the
  /// callers), never more than the connection limit, split between them.
  static func shares(maximumConnectionsPerHost: Int, cores: Int) -> [Int] {
    let limit = max(1, maximumConnectionsPerHost)
    let threads = max(1, min(2, cores, limit))
    return (0..<threads).map { limit / threads + ($0 < limit % threads ? 1 : 0) }
  }

  /// Threads that may open `connectionsPerHost` connections to one host
  /// each (at least one thread).
  init(connectionsPerHost: [Int]) {
    self.connectionsPerHost = connectionsPerHost.isEmpty ? [1] : connectionsPerHost.map { max(1, $0) }
    transfers = Array(repeating: 0, count: self.connectionsPerHost.count)
  }

  /// Takes a transfer; the thread it goes to.
  mutating func assign() -> Int {
    var best = 0
    for index in transfers.indices.dropFirst()
    where transfers[index] * connectionsPerHost[best] < transfers[best] * connectionsPerHost[index] {
      best = index
    }
    transfers[best] += 1
    return best
  }

  /// A transfer on `thread` ended (finished, failed or cancelled).
  mutating func release(_ thread: Int) {
    transfers[thread] = max(0, transfers[thread] - 1)
  }
}
