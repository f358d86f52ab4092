import Dispatch
import Foundation

/// The system resolver (getaddrinfo), on a thread of its own for each
/// lookup: a slow DNS server blocks that thread only, never a Swift task's
/// nor one of GCD's global pool, which Swift's tasks and URLSession's
/// queues share (a dozen slow lookups would stall every load in the
/// process). At most ``concurrentLookups`` run at once; the others wait
/// their turn without a thread.
enum HostResolver {
  /// Lookups on their threads at once.
  static let concurrentLookups = 16
  private static let gate = AdmissionGate(concurrency: concurrentLookups, capacity: Int.max / 2)

  /// The classes of every address `host` resolves to.
  static func addresses(of host: String) async -> Result<[AddressClass], SourceRefusal> {
    let result = await gate.run {
      await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: lookUp(host)) }
        thread.name = "magpie-resolver"
        thread.start()
      }
    }
    // Only a request cancelled while it waited has none.
    return result ?? .failure(SourceRefusal(status: 503, reason: "the lookup of \(host) was cancelled"))
  }

  private static func lookUp(_ host: String) -> Result<[AddressClass], SourceRefusal> {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    // A bracketed IPv6 literal from a URL resolves without its brackets.
    let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    let status = getaddrinfo(name, nil, &hints, &list)
    guard status == 0, let first = list else {
      return .failure(SourceRefusal(status: 404, reason: "the source's host \(host) does not resolve"))
    }
    defer { freeaddrinfo(first) }
    var classes: [AddressClass] = []
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      if let address = current.pointee.ai_addr {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
          let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
          let b = withUnsafeBytes(of: v4) { Array($0) }
          classes.append(.ipv4(b[0], b[1], b[2], b[3]))
        case AF_INET6:
          let v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
          classes.append(.ipv6(withUnsafeBytes(of: v6) { Array($0) }))
        default: break
        }
      }
      entry = current.pointee.ai_next
    }
    guard !classes.isEmpty else {
      return .failure(SourceRefusal(status: 404, reason: "the source's host \(host) has no address"))
    }
    return .success(classes)
  }
}
