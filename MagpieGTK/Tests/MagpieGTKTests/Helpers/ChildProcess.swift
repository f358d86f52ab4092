import Foundation

/// Runs a program as a child with a deadline, reading its output as it
/// comes: `until` can end a program that runs until told (a window) once
/// its output shows what the test waits for.
struct ChildProcess {
  /// The exit status (after a stop, the signal's status).
  let status: Int32
  /// Standard output and standard error together.
  let output: String
  /// Whether the test ended the child because `until` held.
  let stoppedByTest: Bool
  /// Whether the deadline passed first.
  let timedOut: Bool

  /// The lines of the output that start with `prefix`, without it.
  func lines(prefixed prefix: String) -> [String] { output.lines(prefixed: prefix) }

  /// Runs `executable` with `arguments`, stopping it when `until` holds
  /// for its output so far or when `timeout` passes. The stop is SIGKILL:
  /// a child started from the test runner's threads inherits their signal
  /// mask, SIGTERM blocked, so a window would never see a SIGTERM.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration,
    until: ((String) -> Bool)? = nil
  ) throws -> ChildProcess {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let output = Output()
    let reader = Thread {
      while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty { output.append(chunk) }
      output.finish()
    }
    try process.run()
    reader.start()
    let deadline = Date().addingTimeInterval(Double(timeout.components.seconds))
    var stoppedByTest = false
    var timedOut = false
    while !output.isFinished {
      if let until, until(output.text) {
        stoppedByTest = true
        break
      }
      // Woken by each chunk and by the end of the output.
      if !output.waitForChange(before: deadline) {
        timedOut = !output.isFinished
        break
      }
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    output.waitUntilFinished()
    process.waitUntilExit()
    return ChildProcess(
      status: process.terminationStatus, output: output.text, stoppedByTest: stoppedByTest, timedOut: timedOut)
  }

  /// The output as it arrives, shared with the reading thread.
  private final class Output: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var finished = false
    private var changes = 0
    private var seen = 0

    func append(_ chunk: Data) { update { data.append(chunk) } }
    func finish() { update { finished = true } }
    var text: String { condition.withLock { String(decoding: data, as: UTF8.self) } }
    var isFinished: Bool { condition.withLock { finished } }

    /// Waits for a change not yet seen; false when `deadline` passed first.
    func waitForChange(before deadline: Date) -> Bool {
      condition.withLock {
        while changes == seen {
          if !condition.wait(until: deadline) { return false }
        }
        seen = changes
        return true
      }
    }

    func waitUntilFinished() {
      condition.withLock { while !finished { condition.wait() } }
    }

    private func update(_ change: () -> Void) {
      condition.withLock {
        change()
        changes += 1
        condition.broadcast()
      }
    }
  }
}
