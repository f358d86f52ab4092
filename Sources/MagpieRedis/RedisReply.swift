import CHiredis
import Foundation

/// One reply from the server, copied out of hiredis's reply object.
enum RedisReply: Equatable, Sendable {
  /// A bulk string (a value).
  case data(Data)
  /// A status line such as `OK`.
  case status(String)
  /// An integer (`DEL`, `EXISTS`, `PTTL`).
  case integer(Int)
  /// No value: a missing key, or a `SET NX` that did not set.
  case null
  /// An array (`SCAN`, a script's table).
  case array([RedisReply])
  /// The server refused the command; the text says why.
  case error(String)

  /// A copy of hiredis's `reply` (which the caller still frees).
  init(_ reply: UnsafeMutablePointer<redisReply>) {
    let value = reply.pointee
    switch value.type {
    case REDIS_REPLY_STRING: self = .data(value.str.map { Data(bytes: $0, count: Int(value.len)) } ?? Data())
    case REDIS_REPLY_STATUS: self = .status(value.str.map { String(cString: $0) } ?? "")
    case REDIS_REPLY_ERROR: self = .error(value.str.map { String(cString: $0) } ?? "")
    case REDIS_REPLY_INTEGER: self = .integer(Int(value.integer))
    case REDIS_REPLY_ARRAY:
      self = .array((0..<Int(value.elements)).compactMap { value.element[$0].map(RedisReply.init) })
    default: self = .null
    }
  }
}
