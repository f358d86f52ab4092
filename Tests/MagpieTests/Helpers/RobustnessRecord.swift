import Foundation

/// Where the robustness tests note what they saw for docs/robustness.md:
/// when `MAGPIE_ROBUSTNESS_RECORD` names a file (`make robustness-record`
/// sets it), each note is appended to it as one JSON line, which
/// Scripts/robustness_report.py turns into the report's tables. Without it
/// nothing is written, so a plain `make test` leaves no file behind.
enum RobustnessRecord {
  private static let path = ProcessInfo.processInfo.environment["MAGPIE_ROBUSTNESS_RECORD"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// Notes the outcome of hostile-origin case `name` on `loader`: the
  /// error's code and reason (or, when it loaded, `loaded`: what the case
  /// checks of a load that succeeds) and how long it took.
  static func hostileOrigin(
    _ name: String, loader: String, error: (any Error)?, loaded: String = "loaded", elapsed: Duration
  ) {
    guard let path else { return }
    let outcome = error.map { "\($0)" } ?? loaded
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let fields: [String: Any] = ["case": name, "loader": loader, "outcome": outcome, "seconds": seconds]
    guard var line = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
    line.append(UInt8(ascii: "\n"))
    // O_APPEND: each short line lands whole, however many tests note at once.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}
