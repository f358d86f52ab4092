import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private `redis-server` (Debian's) on a free 127.0.0.1 port, with no
/// persistence, stopped when released. ``kill()`` ends it with SIGKILL and
/// ``start()`` brings it back on the same port, for the outage tests.
///
/// `@unchecked Sendable`: `process` changes only in `start` and `kill`,
/// which the tests call from one task.
final class RedisServer: @unchecked Sendable {
  /// Why the server did not start.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The port it listens on.
  private(set) var port: Int
  private var process: Process?

  /// Starts a server on a free port.
  init() throws {
    port = 0
    var lastError: Failure?
    // A port found free can be taken before redis binds it: a few tries.
    for _ in 0..<5 {
      port = try Self.freePort()
      do {
        try start()
        return
      } catch let error as Failure {
        lastError = error
      }
    }
    throw lastError ?? Failure(description: "redis-server did not start")
  }

  deinit { kill() }

  /// `redis://127.0.0.1:PORT/db`.
  func url(database: Int = 0) -> URL { URL(string: "redis://127.0.0.1:\(port)/\(database)")! }

  /// Whether `redis-server` is installed (`make test` installs it).
  static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/redis-server") }

  /// Starts (or restarts) the server on ``port`` and returns once it
  /// accepts connections (it prints a line saying so).
  func start() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
    process.arguments = [
      "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no",
      "--dir", FileManager.default.temporaryDirectory.path, "--loglevel", "notice",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    var seen = ""
    while !seen.contains("Ready to accept connections") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty {
        process.waitUntilExit()
        throw Failure(description: "redis-server on port \(port) exited: \(seen)")
      }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    // Keep draining its log so it never blocks on a full pipe.
    output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    self.process = process
  }

  /// Ends the server at once (SIGKILL) and waits for it to exit.
  func kill() {
    guard let process, process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
    self.process = nil
  }

  /// Runs `redis-cli` against the server and returns its output.
  func cli(_ arguments: String...) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
    process.arguments = ["-h", "127.0.0.1", "-p", "\(port)"] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func freePort() throws -> Int {
    let (socket, port) = try boundSocket(listening: false)
    close(socket)
    return port
  }

  /// A TCP socket bound to a free 127.0.0.1 port, listening (with a
  /// backlog, never accepting) when `listening`: a server that takes
  /// connections and never answers. The caller closes it.
  static func boundSocket(listening: Bool) throws -> (socket: Int32, port: Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && (!listening || listen(socket, 16) == 0)
          && getsockname(socket, $0, &length) == 0
      }
    }
    guard bound else {
      close(socket)
      throw Failure(description: "no free port")
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
  }
}
