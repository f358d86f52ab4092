import Foundation

/// Runs a built executable of this package (the probe, the gallery) as a
/// child and collects its output: GTK wants the main thread, which the
/// test runner keeps.
struct ProbeRun {
  /// The exit status.
  let status: Int32
  /// Standard output and standard error together.
  let output: String

  /// The lines of the output that start with `prefix`, without it.
  func lines(prefixed prefix: String) -> [String] { output.lines(prefixed: prefix) }

  /// The child's peak resident memory in bytes (GNU time's `%M`, the
  /// kernel's high-water mark of what `ps` shows as RSS), for a run made
  /// with `measuringPeakMemory`.
  var peakResidentBytes: Int? { lines(prefixed: "peak-rss-kb ").last.flatMap { Int($0) }.map { $0 << 10 } }

  /// Runs `executable` (a product beside the test bundle) with `arguments`
  /// in `environment` (the test's own when `nil`) and waits for it to exit;
  /// with `measuringPeakMemory`, under `/usr/bin/time` (Debian's `time`,
  /// which `make test` installs) for ``peakResidentBytes``.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    measuringPeakMemory: Bool = false
  ) throws -> ProbeRun {
    let process = Process()
    let path = GTKTestPaths.products.appendingPathComponent(executable)
    if measuringPeakMemory {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
      process.arguments = ["-f", "peak-rss-kb %M", path.path] + arguments
    } else {
      process.executableURL = path
      process.arguments = arguments
    }
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // Read to the end before waiting: a full pipe would block the child.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProbeRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}
