import CHiredis
import Foundation
import Magpie
import Synchronization

/// One thread that waits (`epoll`) on every connection of a pool and reads
/// their replies as they arrive, and fails a connection whose oldest
/// command is past its deadline. Runs until ``stop()``; then it fails the
/// connections still open (which closes them) and closes its descriptors.
///
/// `@unchecked Sendable`: the registry, and every `epoll_ctl`, are behind
/// one lock, so no call reaches the descriptors once they are closed.
final class RedisEventLoop: @unchecked Sendable {
  private struct Registry {
    var stopped = false
    var connections: [Int32: RedisConnection] = [:]
  }

  private let poller: Int32
  private let wakeup: Int32
  private let registry = Lock(Registry())
  /// Bumped under the registry's lock at every change, so the thread
  /// copies the registry only when it changed (not at every wake-up: a
  /// contended lock there costs a context switch per reply).
  private let changes = Atomic<Int>(0)

  /// Starts the thread.
  init() {
    poller = mp_epoll_create()
    wakeup = mp_eventfd()
    _ = mp_epoll_ctl(poller, mp_epoll_add(), wakeup, 0)
    let thread = Thread { [self] in run() }
    thread.name = "magpie.redis"
    thread.start()
  }

  /// Reads `connection`'s socket `fd` from now on; `false` once stopped.
  func register(_ connection: RedisConnection, fd: Int32) -> Bool {
    let added = registry.withLock { registry -> Bool in
      guard !registry.stopped else { return false }
      registry.connections[fd] = connection
      changes.add(1, ordering: .releasing)
      _ = mp_epoll_ctl(poller, mp_epoll_add(), fd, 0)
      return true
    }
    if added { signal() }  // its deadlines count from now
    return added
  }

  /// Also waits for `fd` to take more bytes, or no longer.
  func watch(_ fd: Int32, writable: Bool) {
    registry.withLock { registry in
      guard !registry.stopped else { return }
      _ = mp_epoll_ctl(poller, mp_epoll_mod(), fd, writable ? 1 : 0)
    }
  }

  /// Stops reading `fd` (its connection broke).
  func unregister(_ fd: Int32) {
    registry.withLock { registry in
      guard registry.connections.removeValue(forKey: fd) != nil, !registry.stopped else { return }
      changes.add(1, ordering: .releasing)
      _ = mp_epoll_ctl(poller, mp_epoll_del(), fd, 0)
    }
  }

  /// Ends the thread (the pool is gone).
  func stop() {
    registry.withLock { registry in
      registry.stopped = true
      changes.add(1, ordering: .releasing)
    }
    signal()
  }

  private func signal() {
    var one: UInt64 = 1
    _ = write(wakeup, &one, 8)
  }

  private func run() {
    var fds = [Int32](repeating: 0, count: 64)
    var flags = [Int32](repeating: 0, count: 64)
    var seen = -1
    var live: [Int32: RedisConnection] = [:]
    var nextScan = ContinuousClock.now
    while true {
      let version = changes.load(ordering: .acquiring)
      if version != seen {
        seen = version
        let (stopped, connections) = registry.withLock { ($0.stopped, $0.connections) }
        if stopped { break }
        live = connections
      }
      var now = ContinuousClock.now
      if now >= nextScan {
        for connection in live.values { connection.expire(at: now) }
        // Next look: at the earliest deadline, and at least every 100 ms (a
        // command sent later brings a deadline it does not know; deadlines
        // are sent time plus one timeout, so none is earlier than these).
        let earliest = live.values.compactMap(\.earliestDeadline).min()
        nextScan = min(earliest.map { max($0, now) } ?? now + .milliseconds(100), now + .milliseconds(100))
      }
      now = ContinuousClock.now
      let wait = max(0, (nextScan - now).milliseconds.rounded(.up))
      let count = mp_epoll_wait(poller, &fds, &flags, 64, Int32(min(wait, 100)))
      for index in 0..<max(0, Int(count)) {
        if fds[index] == wakeup {
          var value: UInt64 = 0
          _ = read(wakeup, &value, 8)
          continue
        }
        guard let connection = live[fds[index]] else { continue }
        if flags[index] & Int32(MP_WRITABLE) != 0 { connection.writable() }
        if flags[index] & Int32(MP_READABLE) != 0 { connection.readable() }
      }
    }
    // Stopped: nothing registers any more. Failing the rest breaks their
    // references to this loop, so they close.
    let rest = registry.withLock { registry in
      defer { registry.connections.removeAll() }
      return Array(registry.connections.values)
    }
    for connection in rest { connection.fail(MagpieError(.cancelled, "redis: the storage was released")) }
    close(poller)
    close(wakeup)
  }
}
