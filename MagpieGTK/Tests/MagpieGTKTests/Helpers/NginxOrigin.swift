import Foundation
import Synchronization

/// A real nginx on 127.0.0.1 serving a folder, run by
/// `Scripts/origin/nginx-origin.sh` (which generates the config, picks a
/// free port and removes its work folder when it stops).
///
/// The script runs until its stdin closes; this helper holds the write end
/// of that pipe, so nginx stops when ``stop()`` runs, when the origin is
/// released, or when the test process exits however it ends.
///
/// Copied from the core's test helpers (a package cannot import another
/// package's tests), without the log fence this package does not need.
///
/// `@unchecked Sendable`: its stored properties never change after `init`
/// except through `stopped`, which a mutex guards.
final class NginxOrigin: @unchecked Sendable {
  /// The port nginx listens on (127.0.0.1 only).
  let port: Int
  /// The folder it serves.
  let root: URL
  /// The script's work folder: config, logs (`logs/access.log`).
  let workdir: URL
  /// `http` or `https` (self-signed certificate).
  let scheme: String
  private let process: Process
  private let input: Pipe
  private let stopped = Mutex(false)

  /// Starts nginx serving `root`; with `tls`, over HTTPS with a
  /// self-signed certificate.
  init(serving root: URL, tls: Bool = false, extraConfiguration: String? = nil) throws {
    self.root = root
    scheme = tls ? "https" : "http"
    let script = GTKTestPaths.repositoryRoot.appendingPathComponent("Scripts/origin/nginx-origin.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script.path, root.path] + (tls ? ["--tls"] : [])
    var extraFile: URL?
    defer { extraFile.map { try? FileManager.default.removeItem(at: $0) } }
    if let extraConfiguration {
      // Directives for the server block (see nginx-origin.sh --conf), which
      // the script copies into its work folder as it starts.
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-nginx-\(UUID().uuidString).conf")
      try extraConfiguration.write(to: file, atomically: true, encoding: .utf8)
      process.arguments! += ["--conf", file.path]
      extraFile = file
    }
    let input = Pipe()
    let output = Pipe()
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-nginx-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errors) }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    self.process = process
    self.input = input
    let lines = Self.readLines(2, from: output.fileHandleForReading)
    guard lines.count == 2, let port = Int(lines[0]) else {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      let why = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw HelperProcessError(reason: "nginx-origin.sh did not start: \(why)")
    }
    self.port = port
    workdir = URL(fileURLWithPath: lines[1])
  }

  deinit {
    stop()
  }

  /// The origin's URL for `path` (starting with `/`).
  func url(_ path: String) -> URL {
    URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")!
  }

  /// Stops nginx and waits for the script to clean up. Idempotent.
  func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  /// Reads `count` lines from `handle` (fewer when it ends first).
  static func readLines(_ count: Int, from handle: FileHandle) -> [String] {
    var text = ""
    while text.filter({ $0 == "\n" }).count < count {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    return text.split(separator: "\n").prefix(count).map(String.init)
  }
}
