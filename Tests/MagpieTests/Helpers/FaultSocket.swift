import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One accepted connection of ``FaultOrigin``, used by the one thread that
/// serves it: reads request heads, writes bytes, waits, and closes in the
/// ways the faults need.
final class FaultSocket {
  /// The parsed head of one request.
  struct Head {
    var method: String
    var target: String
    var headers: [String: String]
  }

  let descriptor: Int32
  private var pending: [UInt8] = []
  private let isStopped: () -> Bool

  init(descriptor: Int32, isStopped: @escaping () -> Bool) {
    self.descriptor = descriptor
    self.isStopped = isStopped
  }

  /// The next request head, or `nil` when the client closed the
  /// connection (or the origin stopped).
  func readHead() -> Head? {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      if let end = headEnd() {
        let text = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 4)
        return parse(text)
      }
      guard waitReadable(milliseconds: 100) != .closed else { return nil }
      if isStopped() { return nil }
      let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count == 0 { return nil }
      if count < 0 {
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
        return nil
      }
      pending.append(contentsOf: buffer[..<count])
      if pending.count > 64 * 1024 { return nil }
    }
  }

  /// Writes all of `bytes`; `false` when the client is gone.
  func write(_ bytes: Data) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        if isStopped() { return false }
        let sent = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if sent < 0 {
          if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 100)
            continue
          }
          return false
        }
        offset += sent
      }
      return true
    }
  }

  /// Writes `text` as UTF-8.
  func write(_ text: String) -> Bool { write(Data(text.utf8)) }

  /// What waiting saw.
  enum WaitResult {
    case timedOut
    case readable
    case closed
  }

  /// Waits up to `milliseconds` (forever when `nil`) for the client to
  /// close the connection; data it sends meanwhile is kept for the next
  /// request. Returns `true` when the client closed it.
  func waitForClose(milliseconds: Int?) -> Bool {
    let deadline = milliseconds.map { DispatchTime.now().uptimeNanoseconds + UInt64($0) * 1_000_000 }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !isStopped() {
      var slice = 100
      if let deadline {
        let now = DispatchTime.now().uptimeNanoseconds
        if now >= deadline { return false }
        slice = min(slice, Int((deadline - now) / 1_000_000) + 1)
      }
      switch waitReadable(milliseconds: slice) {
      case .closed: return true
      case .timedOut: continue
      case .readable:
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 { return true }
        if count < 0 {
          if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
          return true
        }
        pending.append(contentsOf: buffer[..<count])
      }
    }
    return false
  }

  /// Makes the coming close a TCP reset (SO_LINGER 0). The owner closes
  /// the descriptor (under its lock, so a descriptor number is never used
  /// after another socket got it).
  func reset() {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
  }

  /// Ends the sending side cleanly (FIN); the owner closes the descriptor.
  func finish() {
    shutdown(descriptor, Int32(SHUT_WR))
  }

  private func waitReadable(milliseconds: Int) -> WaitResult {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, Int32(milliseconds))
    if ready == 0 { return .timedOut }
    if ready < 0 { return errno == EINTR ? .timedOut : .closed }
    if poller.revents & Int16(POLLIN) != 0 { return .readable }
    return .closed
  }

  private func headEnd() -> Int? {
    guard pending.count >= 4 else { return nil }
    for index in 0...(pending.count - 4)
    where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
      return index
    }
    return nil
  }

  private func parse(_ text: String) -> Head? {
    let lines = text.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Head(method: String(parts[0]), target: String(parts[1]), headers: headers)
  }
}
