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
  /// An array (`SCAN`).
  case array([RedisReply])
  /// The server refused the command; the text says why.
  case error(String)
}
