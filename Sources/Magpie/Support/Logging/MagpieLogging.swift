import Synchronization

/// Magpie's logging: levels, entries and a handler, the small protocol
/// the Swift ecosystem's logging API (swift-log) has, so an app forwards
/// them to swift-log (or anywhere) in a few lines, with no package to
/// depend on. Silent by default: until ``bootstrap(_:level:)`` sets a
/// handler, a log call costs one atomic load and builds no message.
///
/// The loader (downloads, retries, resumes, challenges), the caches
/// (failed reads and writes, evictions), the Redis tier (its connection)
/// and the decoders (failed decodes) log through it; `magpie ... --verbose`
/// prints it to standard error.
///
/// ```swift
/// import Logging  // swift-log
/// struct ToSwiftLog: MagpieLogging.Handler {
///   let logger = Logger(label: "magpie")
///   func log(_ entry: MagpieLogging.Entry) {
///     logger.log(level: Logger.Level(rawValue: entry.level.name)!, "\(entry.message)",
///                metadata: entry.metadata.mapValues { .string($0) }, source: entry.source)
///   }
/// }
/// MagpieLogging.bootstrap(ToSwiftLog(), level: .info)
/// ```
public enum MagpieLogging {
  /// How much an entry matters, swift-log's seven levels.
  public enum Level: Int, Sendable, Comparable, CaseIterable {
    /// Step by step detail.
    case trace
    /// What each load did.
    case debug
    /// Something worth knowing happened.
    case info
    /// Something unusual but handled (a retry).
    case notice
    /// Something failed and was recovered from or reported.
    case warning
    /// Something failed.
    case error
    /// Something failed badly.
    case critical

    /// The level's name as swift-log spells it (`"debug"`, ...).
    public var name: String { String(describing: self) }

    /// Orders levels by how much they matter.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// One thing that happened.
  public struct Entry: Sendable {
    /// How much it matters.
    public var level: Level
    /// What happened, for a person.
    public var message: String
    /// Which part of Magpie logged it: `loader`, `cache`, `redis`,
    /// `decoder`.
    public var source: String
    /// Details as names and values (a URL, a key, a byte count).
    public var metadata: [String: String]
  }

  /// Where entries go.
  public protocol Handler: Sendable {
    /// Takes an entry at or above the level bootstrapped with.
    func log(_ entry: Entry)
  }

  private static let handler = Mutex<(any Handler)?>(nil)
  /// The lowest level logged; above every level while silent.
  private static let threshold = Atomic<Int>(Int.max)

  /// Sends entries at `level` and above to `handler` from now on, in
  /// this process; `nil` makes Magpie silent again.
  public static func bootstrap(_ handler: (any Handler)?, level: Level = .info) {
    self.handler.withLock { $0 = handler }
    threshold.store(handler == nil ? Int.max : level.rawValue, ordering: .releasing)
  }

  /// Whether an entry at `level` would be logged.
  public static func isLogging(_ level: Level) -> Bool {
    level.rawValue >= threshold.load(ordering: .relaxed)
  }

  /// Logs `message` from `source` at `level`, when that level is on: the
  /// message and metadata are only built then.
  public static func log(
    _ level: Level, _ source: String, _ message: @autoclosure () -> String,
    metadata: @autoclosure () -> [String: String] = [:]
  ) {
    guard isLogging(level), let handler = handler.withLock({ $0 }) else { return }
    handler.log(Entry(level: level, message: message(), source: source, metadata: metadata()))
  }
}
