/// Whether an IP address is one a server on the public internet may
/// fetch from, or one an attacker could use to reach the server's own
/// network (SSRF): loopback, private, link-local (the cloud metadata
/// service at 169.254.169.254), carrier-grade NAT, unspecified, multicast,
/// reserved, and IPv6's equivalents, including IPv4 addresses mapped or
/// embedded in IPv6.
enum AddressClass: Equatable {
  /// A public unicast address.
  case publicAddress
  /// Anything else, with what it is.
  case privateAddress(String)

  /// The class of a 4-byte IPv4 or 16-byte IPv6 address.
  init(bytes: [UInt8]) {
    switch bytes.count {
    case 4: self = .ipv4(bytes[0], bytes[1], bytes[2], bytes[3])
    case 16: self = .ipv6(bytes)
    default: self = .privateAddress("malformed")
    }
  }

  /// The class of the IPv4 address `a.b.c.d`.
  static func ipv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> AddressClass {
    switch (a, b) {
    case (0, _): .privateAddress("unspecified (0.0.0.0/8)")
    case (10, _): .privateAddress("private (10.0.0.0/8)")
    case (127, _): .privateAddress("loopback (127.0.0.0/8)")
    case (169, 254): .privateAddress("link-local (169.254.0.0/16)")
    case (172, 16...31): .privateAddress("private (172.16.0.0/12)")
    case (192, 168): .privateAddress("private (192.168.0.0/16)")
    case (100, 64...127): .privateAddress("carrier-grade NAT (100.64.0.0/10)")
    case (192, 0) where c == 0: .privateAddress("IETF protocol assignments (192.0.0.0/24)")
    case (198, 18...19): .privateAddress("benchmarking (198.18.0.0/15)")
    case (224...239, _): .privateAddress("multicast (224.0.0.0/4)")
    case (240...255, _): .privateAddress("reserved (240.0.0.0/4)")
    default: .publicAddress
    }
  }

  /// The class of a 16-byte IPv6 address.
  static func ipv6(_ bytes: [UInt8]) -> AddressClass {
    guard bytes.count == 16 else { return .privateAddress("malformed") }
    let head = bytes[0..<10].allSatisfy { $0 == 0 }
    if head && bytes[10] == 0xFF && bytes[11] == 0xFF {
      return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])  // ::ffff:a.b.c.d
    }
    if head && bytes[10] == 0 && bytes[11] == 0 {
      if bytes[12..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 {
        return .privateAddress(bytes[15] == 1 ? "loopback (::1)" : "unspecified (::)")
      }
      return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])  // ::a.b.c.d (deprecated)
    }
    // 64:ff9b::/96 (NAT64) carries an IPv4 address in its last four bytes.
    if bytes[0] == 0, bytes[1] == 0x64, bytes[2] == 0xFF, bytes[3] == 0x9B, bytes[4..<12].allSatisfy({ $0 == 0 }) {
      return ipv4(bytes[12], bytes[13], bytes[14], bytes[15])
    }
    switch bytes[0] {
    case 0xFC, 0xFD: return .privateAddress("unique local (fc00::/7)")
    case 0xFE where bytes[1] & 0xC0 == 0x80: return .privateAddress("link-local (fe80::/10)")
    case 0xFE where bytes[1] & 0xC0 == 0xC0: return .privateAddress("site-local (fec0::/10)")
    case 0xFF: return .privateAddress("multicast (ff00::/8)")
    default: return .publicAddress
    }
  }
}
