import CHiredis
import Foundation
import Magpie

/// Opens a hiredis connection the blocking way, bounded by the connect and
/// command timeouts, and authenticates and selects the database on it, so
/// that ``RedisConnection`` gets a socket ready for commands.
enum RedisHandshake {
  /// The connected context, or why there is none.
  static func open(_ configuration: RedisConfiguration) -> Result<UnsafeMutablePointer<redisContext>, MagpieError> {
    let endpoint = configuration.endpoint
    guard
      let context = redisConnectWithTimeout(
        configuration.host, Int32(configuration.port), configuration.connectTimeout.timeval)
    else { return .failure(MagpieError(.network, "redis \(endpoint): could not allocate a connection")) }
    guard context.pointee.err == 0 else {
      let reason = errorText(context)
      redisFree(context)
      return .failure(MagpieError(.network, "redis \(endpoint): cannot connect: \(reason)"))
    }
    _ = redisSetTimeout(context, configuration.commandTimeout.timeval)
    _ = redisEnableKeepAlive(context)
    var setup: [(words: [String], what: String)] = []
    if let password = configuration.password {
      setup.append((configuration.username.map { ["AUTH", $0, password] } ?? ["AUTH", password], "AUTH"))
    }
    if configuration.database != 0 {
      setup.append((["SELECT", "\(configuration.database)"], "SELECT \(configuration.database)"))
    }
    for (words, what) in setup {
      let arguments = words.map(RedisArguments.bytes)
      let raw = RedisArguments.withPointers(arguments) { argv, lengths in
        redisCommandArgv(context, Int32(arguments.count), argv, lengths)
      }
      guard let raw else {
        let reason = errorText(context)
        redisFree(context)
        return .failure(MagpieError(.network, "redis \(endpoint): \(what) failed: \(reason)"))
      }
      let reply = RedisReply(raw.assumingMemoryBound(to: redisReply.self))
      freeReplyObject(raw)
      if case .error(let text) = reply {
        redisFree(context)
        return .failure(MagpieError(.invalidArgument, "redis \(endpoint): \(what) refused: \(text)"))
      }
    }
    return .success(context)
  }

  private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
    withUnsafeBytes(of: context.pointee.errstr) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
