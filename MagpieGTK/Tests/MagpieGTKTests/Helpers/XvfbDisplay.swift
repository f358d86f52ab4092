import Foundation
import Synchronization

/// A private Xvfb on a free display number, run by
/// `MagpieGTK/Scripts/xvfb-display.sh`, which stops it when its stdin closes:
/// when ``stop()`` runs or the test process exits. One serves every test of
/// a run (``shared``): starting it takes longer than a test.
///
/// `@unchecked Sendable`: nothing changes after `init` but `stopped`,
/// behind a mutex.
final class XvfbDisplay: @unchecked Sendable {
  /// The display, `:N`.
  let name: String
  private let process: Process
  private let input: Pipe
  private let stopped = Mutex(false)

  /// The display every test of this run shares, started on first use.
  static let shared = Result { try XvfbDisplay() }

  /// Starts Xvfb and waits for its display number.
  init() throws {
    let script = GTKTestPaths.repositoryRoot.appendingPathComponent("MagpieGTK/Scripts/xvfb-display.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    self.process = process
    self.input = input
    let lines = NginxOrigin.readLines(1, from: output.fileHandleForReading)
    guard let number = lines.first.flatMap({ Int($0) }) else {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      throw HelperProcessError(reason: "Xvfb did not start (is the xvfb package installed?)")
    }
    name = ":\(number)"
  }

  deinit { stop() }

  /// Stops Xvfb. Idempotent.
  func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// The environment a GTK child process draws on this display with: X11
  /// (Xvfb is an X server) and the cairo renderer (Xvfb has no GL).
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = name
    environment["GDK_BACKEND"] = "x11"
    environment["GSK_RENDERER"] = "cairo"
    // No accessibility bus or settings daemon on a CI machine; without
    // these GTK waits on D-Bus timeouts.
    environment["NO_AT_BRIDGE"] = "1"
    environment["GTK_A11Y"] = "none"
    environment["GSETTINGS_BACKEND"] = "memory"
    return environment
  }
}
