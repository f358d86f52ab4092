import COpenSSL

/// SHA-256 from OpenSSL's libcrypto: cache file names are the digest of the
/// cache key, so no key text ever reaches the file system.
enum SHA256 {
  /// The digest of `bytes` as 64 lowercase hex digits.
  static func hexDigest<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> String {
    _ = OpenSSLSetup.isReady
    let input = Array(bytes)
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    let ok = input.withUnsafeBytes { raw in
      digest.withUnsafeMutableBufferPointer { out in
        EVP_Digest(raw.baseAddress, raw.count, out.baseAddress, &length, EVP_sha256(), nil)
      }
    }
    // EVP_Digest with SHA-256 fails only when libcrypto cannot allocate a context.
    precondition(ok == 1 && length == 32, "libcrypto could not compute SHA-256")
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for byte in digest {
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
