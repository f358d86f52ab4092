import CCurl
import Foundation

/// libcurl's open-socket callback when an address filter is set: asks
/// ``DataLoaderConfiguration/addressFilter`` about the address curl is
/// about to connect to (after its own DNS lookup, so what is checked is
/// what is connected to), and opens the socket only when it agrees.
/// `clientp` is the ``CurlActiveTransfer``, as for the body callbacks.
let curlOpenSocket: curl_opensocket_callback = { clientp, _, address in
  guard let clientp, let address else { return magpie_curl_socket_bad }
  let active = Unmanaged<CurlActiveTransfer>.fromOpaque(clientp).takeUnretainedValue()
  let family = address.pointee.family
  var bytes: [UInt8] = []
  var shown = ""
  // The address is `addrlen` bytes in curl's memory, longer than the
  // struct's 16-byte `sockaddr` for IPv6: read it where it lies.
  let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \.addr)!
  let length = Int(address.pointee.addrlen)
  switch family {
  case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
    bytes = withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in.self).sin_addr) { Array($0) }
    shown = bytes.map(String.init).joined(separator: ".")
  case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
    bytes = withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr) { Array($0) }
    shown = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
      .joined(separator: ":")
  default: break
  }
  guard let filter = active.transfer.configuration.addressFilter, !bytes.isEmpty, filter(bytes) else {
    active.refusedAddress = shown.isEmpty ? "an address of family \(family)" : shown
    return magpie_curl_socket_bad
  }
  return socket(family, address.pointee.socktype, address.pointee.protocol)
}
