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
  func lines(prefixed prefix: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
      line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
    }
  }

  /// Runs `executable` (a product beside the test bundle) with `arguments`
  /// in `environment` (the test's own when `nil`) and waits for it to exit.
  static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
    -> ProbeRun
  {
    let process = Process()
    process.executableURL = GTKTestPaths.products.appendingPathComponent(executable)
    process.arguments = arguments
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
