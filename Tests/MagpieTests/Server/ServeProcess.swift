import Foundation

/// A `magpie serve` process for tests: started with arguments, its port read
/// from the `listening on` line, signalled and awaited.
final class ServeProcess: @unchecked Sendable {
  let process = Process()
  let port: Int
  private let errors: URL

  /// Starts `magpie serve` with `arguments` (after `--port 0`) and waits for
  /// its `listening on http://127.0.0.1:PORT` line.
  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = CLIRunner.executable
    process.arguments = ["serve", "--port", "0"] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    errors = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-serve-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardOutput = out
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    // A server that neither prints its line nor exits is killed, which
    // closes the pipe and ends the read below.
    let started = DispatchSemaphore(value: 0)
    let process = process
    DispatchQueue.global().async {
      if started.wait(timeout: .now() + .seconds(60 * Sanitizer.slowdown)) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
      }
    }
    defer { started.signal() }
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("listening on http://127.0.0.1:"),
      let port = Int(text.dropFirst("listening on http://127.0.0.1:".count).prefix { $0.isNumber })
    else {
      process.terminate()
      let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw NginxOriginError(reason: "magpie serve did not start: '\(text)' \(errorText)")
    }
    self.port = port
  }

  /// What it wrote to standard error.
  var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

  /// Its peak resident set size in kB (VmHWM), while it runs.
  func peakKilobytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// Sends `signal`.
  func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

  /// Waits for it to exit and returns its status; one still running after
  /// `limit` (a server that does not drain) is killed, and the answer is
  /// `nil`.
  func exitStatus(limit: Duration = .seconds(60 * Sanitizer.slowdown)) async -> Int32? {
    let process = process
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        if process.isRunning && exited.wait(timeout: .now() + .seconds(Int(limit.components.seconds))) == .timedOut {
          kill(process.processIdentifier, SIGKILL)
          process.waitUntilExit()
          continuation.resume(returning: nil)
          return
        }
        process.waitUntilExit()
        continuation.resume(returning: process.terminationStatus)
      }
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
    try? FileManager.default.removeItem(at: errors)
  }
}
