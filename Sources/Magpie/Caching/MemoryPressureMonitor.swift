import Dispatch
import Foundation

/// Watches the kernel for memory pressure, since Linux has no memory-warning
/// notification: the pressure stall information in `/proc/pressure/memory`
/// and, inside a container, how close the cgroup is to its memory limit.
///
/// It polls (every two seconds by default) on a utility queue; reading two
/// tiny files costs microseconds. Subscribers are called with the level
/// whenever it is above ``Level/normal``.
public final class MemoryPressureMonitor: Sendable {
  /// How hard the system is pressed for memory.
  public enum Level: Int, Sendable, Comparable {
    /// No pressure.
    case normal
    /// Tasks are stalling on memory now and then: shed what is cheap to redo.
    case moderate
    /// Memory is nearly exhausted: shed everything that can be.
    case critical

    /// Orders levels from no pressure to critical.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Where readings come from; tests substitute their own.
  public struct Sources: Sendable {
    /// The text of `/proc/pressure/memory`, or `nil` where the kernel has no PSI.
    public var pressure: @Sendable () -> String?
    /// The cgroup's (usage, limit) in bytes, or `nil` when unlimited/unknown.
    public var cgroupUsage: @Sendable () -> (used: Int, limit: Int)?

    /// Custom readers.
    public init(
      pressure: @escaping @Sendable () -> String?, cgroupUsage: @escaping @Sendable () -> (used: Int, limit: Int)?
    ) {
      self.pressure = pressure
      self.cgroupUsage = cgroupUsage
    }

    /// The kernel's files.
    public static let system = Sources(
      pressure: { try? String(contentsOfFile: "/proc/pressure/memory", encoding: .utf8) },
      cgroupUsage: {
        guard let limit = SystemMemory.cgroupLimit(),
          let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.current", encoding: .utf8),
          let used = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return (used, limit)
      })
  }

  /// The monitor every ``ImageCache`` that trims automatically subscribes to.
  public static let shared = MemoryPressureMonitor()

  private struct State {
    var subscribers: [UInt64: @Sendable (Level) -> Void] = [:]
    var nextToken: UInt64 = 0
    var timer: DispatchSourceTimer?
  }

  private let sources: Sources
  private let interval: DispatchTimeInterval
  private let state = Lock(State())
  private let queue = DispatchQueue(label: "magpie.memory-pressure", qos: .utility)

  /// A monitor reading `sources` every `interval` while it has subscribers.
  public init(sources: Sources = .system, interval: DispatchTimeInterval = .seconds(2)) {
    self.sources = sources
    self.interval = interval
  }

  /// The level the sources show now.
  public func currentLevel() -> Level {
    var level = Level.normal
    if let text = sources.pressure() {
      let (some, full) = Self.parsePressure(text)
      if full >= 5 { level = .critical } else if some >= 10 { level = .moderate }
    }
    if let usage = sources.cgroupUsage(), usage.limit > 0 {
      let fraction = Double(usage.used) / Double(usage.limit)
      if fraction >= 0.95 { level = max(level, .critical) } else if fraction >= 0.85 { level = max(level, .moderate) }
    }
    return level
  }

  /// Calls `handler` on every poll that finds pressure; keep the token and
  /// pass it to ``unsubscribe(_:)`` to stop. Polling starts with the first
  /// subscriber and stops after the last leaves.
  public func subscribe(_ handler: @escaping @Sendable (Level) -> Void) -> UInt64 {
    state.withLock { state in
      let token = state.nextToken
      state.nextToken += 1
      state.subscribers[token] = handler
      if state.timer == nil {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(500))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        state.timer = timer
      }
      return token
    }
  }

  /// Removes a subscription.
  public func unsubscribe(_ token: UInt64) {
    let timer = state.withLock { state -> DispatchSourceTimer? in
      state.subscribers[token] = nil
      guard state.subscribers.isEmpty else { return nil }
      defer { state.timer = nil }
      return state.timer
    }
    timer?.cancel()
  }

  /// Reads the sources once and tells subscribers if there is pressure.
  public func poll() {
    let level = currentLevel()
    guard level > .normal else { return }
    let handlers = state.withLock { Array($0.subscribers.values) }
    for handler in handlers { handler(level) }
  }

  /// The `avg10` percentages of the `some` and `full` lines of a PSI file.
  static func parsePressure(_ text: String) -> (some: Double, full: Double) {
    var some = 0.0
    var full = 0.0
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard let kind = fields.first,
        let avg = fields.first(where: { $0.hasPrefix("avg10=") }),
        let value = Double(avg.dropFirst("avg10=".count))
      else { continue }
      if kind == "some" { some = value } else if kind == "full" { full = value }
    }
    return (some, full)
  }
}
