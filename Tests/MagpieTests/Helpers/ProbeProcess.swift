import Foundation
import Testing

/// Starts `magpie-cache-probe` (built beside the test bundle) and other
/// helper processes for the multi-process cache tests.
enum ProbeProcess {
  /// The built probe.
  static var executable: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("magpie-cache-probe")
  }

  /// A started process with its output pipe.
  struct Running {
    let process: Process
    let output: Pipe

    /// Reads output until a line equal to `line` arrives (or the pipe ends).
    func waitForLine(_ line: String) -> Bool {
      var seen = ""
      while true {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { return false }
        seen += String(decoding: chunk, as: UTF8.self)
        if seen.split(separator: "\n").contains(Substring(line)) { return true }
      }
    }

    /// Waits for exit and returns everything printed.
    func finish() -> (status: Int32, output: String) {
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
  }

  /// The JSON object a probe prints as its last line of `output`.
  static func report(_ output: String) throws -> [String: Any] {
    let line = try #require(output.split(separator: "\n").last.map(String.init))
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  /// Starts `executable` with `arguments`; stderr is inherited.
  static func start(_ executable: URL, _ arguments: [String]) throws -> Running {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    return Running(process: process, output: output)
  }

  /// Runs the probe with `arguments` inside a private mount namespace where
  /// `setup` (shell, with `$1` = `folder`) prepares a file system first: a
  /// tiny tmpfs to fill, or one remounted read-only. `unshare -rm` works
  /// without root, and the mounts vanish with the process.
  static func runInPrivateMount(folder: String, setup: String, probeArguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let script = "\(setup) && probe=\"$2\" && shift 2 && exec \"$probe\" \"$@\""
    let running = try start(
      URL(fileURLWithPath: "/usr/bin/unshare"),
      ["--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", folder, executable.path]
        + probeArguments.map { $0 })
    return running.finish()
  }
}
