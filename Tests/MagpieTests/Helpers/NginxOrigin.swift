import Foundation
import Magpie

#if canImport(Glibc)
  import Glibc
#endif

/// A real nginx on 127.0.0.1 serving a folder, run by
/// `Scripts/origin/nginx-origin.sh` (which generates the config, picks a
/// free port and removes its work folder when it stops).
///
/// The script runs until its stdin closes; this helper holds the write end
/// of that pipe, so nginx stops when ``stop()`` runs, when the origin is
/// released, or when the test process exits however it ends.
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
  private let stopped = Lock(false)

  /// Starts nginx serving `root`; with `tls`, over HTTPS with a
  /// self-signed certificate, one that expired in 2020 when `expired`;
  /// with `extraConfig`, those directives in its server block (`@WORKDIR@`
  /// stands for the work folder); with `modules`, those of Debian's dynamic
  /// modules loaded (`ngx_http_js_module`).
  init(
    serving root: URL, tls: Bool = false, expired: Bool = false, extraConfig: String? = nil, modules: [String] = []
  ) throws {
    self.root = root
    scheme = tls ? "https" : "http"
    let script = TestPaths.repositoryRoot.appendingPathComponent("Scripts/origin/nginx-origin.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    var extra: [String] = []
    if let extraConfig {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-nginx-\(UUID().uuidString).conf")
      try Data(extraConfig.utf8).write(to: file)
      extra = ["--conf", file.path]
    }
    defer { if extra.count == 2 { try? FileManager.default.removeItem(atPath: extra[1]) } }
    process.arguments =
      [script.path, root.path] + (tls ? ["--tls"] : []) + (expired ? ["--expired"] : []) + extra
      + modules.flatMap { ["--module", $0] }
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
      throw NginxOriginError(reason: "nginx-origin.sh did not start: \(why)")
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

  /// How many requests nginx has logged for `uri` (path and query, as
  /// sent). Waits for its log to catch up first: the one worker logs each
  /// request as it ends it, in order, so once a fence request has been
  /// answered every earlier request is in the log.
  func requestCount(_ uri: String) throws -> Int {
    try loggedRequests(uri).count
  }

  /// How many connections the requests nginx has logged for `uri` came
  /// on (the log's last field is the connection's serial number).
  func connectionCount(_ uri: String) throws -> Int {
    Set(try loggedRequests(uri).compactMap { $0.last }).count
  }

  /// Every request nginx has logged (path and query, as sent), in the
  /// order it ended them, once the log caught up; the fence left out.
  func loggedURIs() throws -> [String] {
    try fence()
    let log = try String(contentsOf: workdir.appendingPathComponent("logs/access.log"), encoding: .utf8)
    return log.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
      .filter { $0 != "/__magpie-origin" }
  }

  /// The fields of each request logged for `uri`, once the log caught up.
  private func loggedRequests(_ uri: String) throws -> [[Substring]] {
    try fence()
    let log = try String(contentsOf: workdir.appendingPathComponent("logs/access.log"), encoding: .utf8)
    return log.split(separator: "\n").map { $0.split(separator: " ") }.filter { $0.first.map(String.init) == uri }
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

  /// GET /__magpie-origin on a fresh connection, read to the end.
  private func fence() throws {
    guard scheme == "http" else { return }
    let socket = try LoopbackSocket.connected(to: port)
    defer { close(socket) }
    let request = "GET /__magpie-origin HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    _ = request.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while recv(socket, &buffer, buffer.count, 0) > 0 {}
  }

  private static func readLines(_ count: Int, from handle: FileHandle) -> [String] {
    var text = ""
    while text.filter({ $0 == "\n" }).count < count {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    return text.split(separator: "\n").prefix(count).map(String.init)
  }
}
