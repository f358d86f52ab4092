import Foundation

/// Runs the `magpie` executable that `swift build` put beside the test
/// bundle, and collects what it printed.
struct CLIRunner {
  /// What one run printed and how it ended.
  struct Result: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Peak resident memory in kilobytes, when run under `/usr/bin/time -v`.
    var maxResidentKilobytes: Int?
  }

  /// The built `magpie` binary.
  static var executable: URL {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let beside = bundleDirectory.appendingPathComponent("magpie")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return TestPaths.repositoryRoot.appendingPathComponent(".build/debug/magpie")
  }

  /// Runs `magpie` with `arguments`, with `environment` added to this
  /// process's; with `measuringMemory`, under `/usr/bin/time -v` to read
  /// the peak resident set size. The wait is on threads of its own, never
  /// the task's or GCD's pool.
  static func run(
    _ arguments: [String], measuringMemory: Bool = false, stdin: Data? = nil, environment: [String: String] = [:]
  ) async throws -> Result {
    try await BlockingWork.onThread {
      try runBlocking(arguments, measuringMemory: measuringMemory, stdin: stdin, environment: environment)
    }
  }

  private static func runBlocking(
    _ arguments: [String], measuringMemory: Bool, stdin: Data?, environment: [String: String]
  ) throws -> Result {
    let process = Process()
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if measuringMemory {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
      process.arguments = ["-v", executable.path] + arguments
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty child never
    // blocks on a full pipe.
    let group = DispatchGroup()
    let errBox = DataBox()
    group.enter()
    Thread {
      errBox.data = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    var stderr = String(decoding: errBox.data, as: UTF8.self)
    var peak: Int?
    if measuringMemory {
      // time -v appends its report to stderr; split it off.
      if let range = stderr.range(of: "\tCommand being timed:") {
        let report = stderr[range.lowerBound...]
        stderr = String(stderr[..<range.lowerBound])
        if let line = report.split(separator: "\n").first(where: { $0.contains("Maximum resident set size") }),
          let value = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        {
          peak = value
        }
      }
    }
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: stderr,
      maxResidentKilobytes: peak)
  }
}

/// Carries bytes out of the reader thread; read only after the group waits.
private final class DataBox: @unchecked Sendable {
  var data = Data()
}
