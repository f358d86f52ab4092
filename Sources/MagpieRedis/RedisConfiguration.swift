import Foundation
import Magpie

/// Where a ``RedisStorage`` connects and how it behaves when the server is
/// slow, down, or shared by many instances.
public struct RedisConfiguration: Sendable {
  /// The server's host name or address.
  public var host: String
  /// The server's TCP port.
  public var port: Int
  /// The database index (`SELECT`), 0 by default.
  public var database: Int
  /// The password sent with `AUTH`, if the server wants one.
  public var password: String?
  /// The user name for Redis 6 ACLs (`AUTH user password`), if any.
  public var username: String?
  /// Prepended to every key, so one server can hold several caches (and
  /// ``RedisStorage/removeAll()`` removes only this one's).
  public var keyPrefix: String
  /// Connections kept open; size it to the downloads that run at once
  /// (`ImageDownloader`'s default is 6).
  public var poolSize: Int
  /// How many commands share a connection before the next goes to another
  /// (pipelined: fewer system calls on both sides for small values); the
  /// pool opens more connections, up to ``poolSize``, as load grows past
  /// it. 1 gives every command in flight a connection of its own; the
  /// default is 2.
  public var pipelineDepth: Int
  /// How long a connection attempt may take.
  public var connectTimeout: Duration
  /// How long any one command may take, and how long a load waits for a
  /// free connection.
  public var commandTimeout: Duration
  /// How long an entry lives after it was written (`SET ... PX`);
  /// `.never` keeps it until Redis evicts it.
  public var expiration: CacheExpiration
  /// Values larger than this are not stored (the tier is for thumbnails
  /// and small images; a huge value would stall every instance's reads).
  public var maximumValueSize: Int
  /// Whether instances that miss the same key at once let one of them
  /// fetch from the origin while the others wait for the shared tier.
  public var coalescesMisses: Bool
  /// How long the instance that fetches holds the key's lock (`SET NX PX`):
  /// if it dies, the others stop waiting after this.
  public var lockDuration: Duration
  /// The longest another instance waits for the holder to fill the key
  /// before it fetches from the origin itself.
  public var lockWait: Duration
  /// Failures in a row that open the circuit breaker (the tier is then
  /// skipped without a network call).
  public var failureThreshold: Int
  /// How long the breaker stays open after it opens; doubled on each
  /// failed retry, up to ``maximumRetryInterval``.
  public var retryInterval: Duration
  /// The longest the breaker stays open between retries.
  public var maximumRetryInterval: Duration
  /// Where the breaker's state changes go (one line each); standard error
  /// by default, `nil` for silence.
  public var log: (@Sendable (String) -> Void)?

  /// A configuration for `host:port` with the defaults.
  public init(host: String = "127.0.0.1", port: Int = 6379, database: Int = 0) {
    self.host = host
    self.port = port
    self.database = database
    keyPrefix = "magpie:"
    poolSize = 6
    // Measured on 8 KB hits, 6 at once: 1 read 0.68x redis-benchmark's
    // GETs, 2 read 0.75x, 6 (one connection) 0.78x; 2 keeps a large value
    // from holding up more than one command behind it.
    pipelineDepth = 2
    connectTimeout = .milliseconds(250)
    commandTimeout = .milliseconds(250)
    expiration = .days(7)
    maximumValueSize = 4 << 20
    coalescesMisses = true
    lockDuration = .seconds(10)
    lockWait = .seconds(5)
    failureThreshold = 3
    retryInterval = .seconds(1)
    maximumRetryInterval = .seconds(30)
    log = { line in FileHandle.standardError.write(Data("magpie: \(line)\n".utf8)) }
  }

  /// A configuration from a `redis://[[user]:password@]host[:port][/db]`
  /// URL (the form `redis-cli -u` takes), with the other defaults.
  public init(url: URL) throws(MagpieError) {
    guard url.scheme == "redis", let host = url.host, !host.isEmpty else {
      throw MagpieError(
        .invalidArgument, "a Redis URL is redis://[password@]host[:port][/db], not \(url.redactedDescription)")
    }
    self.init(host: host, port: url.port ?? 6379)
    let path = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    if !path.isEmpty {
      guard let database = Int(path), database >= 0 else {
        throw MagpieError(.invalidArgument, "the Redis URL's database must be a number, not \(path)")
      }
      self.database = database
    }
    if let password = url.password?.removingPercentEncoding, !password.isEmpty {
      self.password = password
      if let user = url.user?.removingPercentEncoding, !user.isEmpty { username = user }
    } else if let user = url.user?.removingPercentEncoding, !user.isEmpty {
      // redis://secret@host: a lone user part is the password (redis-cli).
      password = user
    }
  }

  /// `host:port/db`, with no credentials, for logs and errors.
  public var endpoint: String { "\(host):\(port)/\(database)" }
}
