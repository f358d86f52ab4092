import Foundation
import Magpie

/// Up to ``RedisConfiguration/poolSize`` pipelined connections and the
/// event loop that reads them; a command goes where
/// ``RedisPoolRouting`` says, and a broken connection is replaced by the
/// next command that needs its slot.
final class RedisConnectionPool: Sendable {
  let configuration: RedisConfiguration
  private let loop = RedisEventLoop()
  private let slots: Lock<[RedisConnection?]>

  init(configuration: RedisConfiguration) {
    self.configuration = configuration
    slots = Lock([RedisConnection?](repeating: nil, count: max(1, configuration.poolSize)))
  }

  deinit { loop.stop() }

  /// Sends one command and returns its reply. A `-ERR` reply is returned,
  /// not thrown; a connection that fails or times out throws.
  func send(_ arguments: [Data]) async throws(MagpieError) -> RedisReply {
    let (configuration, loop) = (configuration, loop)
    let connection = slots.withLock { slots -> RedisConnection in
      let loads = slots.map { slot -> Int? in
        guard let slot, !slot.isBroken else { return nil }
        return slot.inFlight
      }
      switch RedisPoolRouting.route(loads, depth: configuration.pipelineDepth) {
      case .use(let index): return slots[index]!
      case .open(let index):
        let connection = RedisConnection(configuration, loop: loop)
        slots[index] = connection
        return connection
      }
    }
    return try await connection.send(arguments).get()
  }
}
