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

  /// hiredis's `reply`, which this takes over: a bulk string's bytes stay
  /// where the reader put them (a value is copied once, by whoever keeps
  /// it, not here too) and are freed with the `Data`; any other reply is
  /// copied and freed now.
  init(taking reply: UnsafeMutableRawPointer) {
    let object = reply.assumingMemoryBound(to: redisReply.self)
    guard object.pointee.type == REDIS_REPLY_STRING, let bytes = object.pointee.str, object.pointee.len > 0 else {
      self.init(object)
      freeReplyObject(reply)
      return
    }
    // The deallocator frees the whole reply object (which owns `bytes`).
    nonisolated(unsafe) let owner = reply
    self = .data(
      Data(bytesNoCopy: bytes, count: Int(object.pointee.len), deallocator: .custom { _, _ in freeReplyObject(owner) }))
  }

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
