import Foundation

/// How much memory this process may use: the machine's, or less inside a
/// container whose cgroup sets a limit.
public enum SystemMemory {
  /// Physical memory, capped by the cgroup limit when there is one.
  public static var available: Int {
    let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
    guard let limit = cgroupLimit() else { return physical }
    return min(physical, limit)
  }

  /// The cgroup memory limit in bytes (v2 `memory.max`, else v1
  /// `memory.limit_in_bytes`), or `nil` when unlimited or unknown.
  public static func cgroupLimit() -> Int? {
    for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
      let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
      // v1 reports "no limit" as a huge number near Int64.max.
      if let bytes = Int(value), bytes > 0, bytes < (1 << 60) { return bytes }
      return nil
    }
    return nil
  }
}
