import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to a port of 127.0.0.1, for the test helpers that
/// speak HTTP themselves (the origin's readiness check, ``HTTPProbe``).
enum LoopbackSocket {
  /// A connected socket to `port`, which the caller closes; throws when
  /// nothing accepts there.
  static func connected(to port: Int) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw NginxOriginError(reason: "socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw NginxOriginError(reason: "nothing accepts connections on 127.0.0.1:\(port)")
    }
    return socket
  }
}
