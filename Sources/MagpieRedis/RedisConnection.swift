import CHiredis
import Foundation
import Magpie

/// One blocking hiredis connection: connected with a timeout, authenticated
/// and on its database, every command bounded by the command timeout.
///
/// Used by one thread at a time (``RedisConnectionPool`` hands it out), so
/// it needs no lock of its own; `@unchecked Sendable` for that hand-off.
final class RedisConnection: @unchecked Sendable {
  private let context: UnsafeMutablePointer<redisContext>
  /// Whether a failure has made the connection unusable (hiredis does not
  /// recover from a timed-out or broken read).
  private(set) var isBroken = false

  /// Connects to `configuration`'s server and selects its database.
  init(_ configuration: RedisConfiguration) throws(MagpieError) {
    let endpoint = configuration.endpoint
    guard
      let context = redisConnectWithTimeout(
        configuration.host, Int32(configuration.port), configuration.connectTimeout.timeval)
    else { throw MagpieError(.network, "redis \(endpoint): could not allocate a connection") }
    guard context.pointee.err == 0 else {
      let reason = Self.errorText(context)
      redisFree(context)
      throw MagpieError(.network, "redis \(endpoint): cannot connect: \(reason)")
    }
    self.context = context
    guard redisSetTimeout(context, configuration.commandTimeout.timeval) == REDIS_OK else {
      throw MagpieError(.network, "redis \(endpoint): cannot set the command timeout")
    }
    _ = redisEnableKeepAlive(context)
    if let password = configuration.password {
      let auth = configuration.username.map { ["AUTH", $0, password] } ?? ["AUTH", password]
      if case .error(let text) = try command(auth.map { Data($0.utf8) }) {
        throw MagpieError(.invalidArgument, "redis \(endpoint): AUTH refused: \(text)")
      }
    }
    if configuration.database != 0,
      case .error(let text) = try command(["SELECT", "\(configuration.database)"].map { Data($0.utf8) })
    {
      throw MagpieError(.invalidArgument, "redis \(endpoint): SELECT \(configuration.database) refused: \(text)")
    }
  }

  deinit { redisFree(context) }

  /// Sends one command (binary-safe arguments) and waits for its reply.
  /// Throws ``MagpieError/Code/networkUnavailable`` or `timedOut` when the
  /// connection fails; the connection is broken after that.
  func command(_ arguments: [Data]) throws(MagpieError) -> RedisReply {
    guard !isBroken else { throw MagpieError(.network, "redis: the connection is broken") }
    let reply = withPointers(arguments) { argv, lengths in
      redisCommandArgv(context, Int32(arguments.count), argv, lengths)
    }
    guard let reply else {
      isBroken = true
      let timedOut = context.pointee.err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK)
      let reason = Self.errorText(context)
      throw MagpieError(timedOut ? .timedOut : .network, "redis: \(timedOut ? "command timed out" : reason)")
    }
    defer { freeReplyObject(reply) }
    return Self.copy(reply.assumingMemoryBound(to: redisReply.self))
  }

  private func withPointers<R>(
    _ arguments: [Data], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
  ) -> R {
    // One contiguous copy of every argument; hiredis copies them again into its buffer.
    var joined = Data(capacity: arguments.reduce(0) { $0 + $1.count } + 1)
    var offsets: [Int] = []
    for argument in arguments {
      offsets.append(joined.count)
      joined.append(argument)
    }
    joined.append(0)
    let lengths = arguments.map(\.count)
    return joined.withUnsafeBytes { raw in
      let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
      var argv: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(base + $0) }
      return argv.withUnsafeMutableBufferPointer { argvBuffer in
        lengths.withUnsafeBufferPointer { body(argvBuffer.baseAddress!, $0.baseAddress!) }
      }
    }
  }

  private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
    let value = reply.pointee
    switch value.type {
    case REDIS_REPLY_STRING:
      return .data(value.str.map { Data(bytes: $0, count: Int(value.len)) } ?? Data())
    case REDIS_REPLY_STATUS: return .status(value.str.map { String(cString: $0) } ?? "")
    case REDIS_REPLY_ERROR: return .error(value.str.map { String(cString: $0) } ?? "")
    case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
    case REDIS_REPLY_ARRAY:
      return .array((0..<Int(value.elements)).compactMap { value.element[$0].map(copy) })
    default: return .null
    }
  }

  private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
    withUnsafeBytes(of: context.pointee.errstr) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
