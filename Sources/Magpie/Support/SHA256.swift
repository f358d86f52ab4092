import COpenSSL
import Foundation

/// SHA-256 from OpenSSL's libcrypto: cache file names are the digest of the
/// cache key, so no key text ever reaches the file system; `magpie serve`'s
/// result keys and entity tags are digests of their parts.
package enum SHA256 {
  /// The digest of `bytes` as 64 lowercase hex digits.
  package static func hexDigest<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> String {
    let input = Array(bytes)
    return input.withUnsafeBytes { raw in hexDigest { update in update(raw) } }
  }

  /// The digest of `parts`, each followed by a zero byte so that no two
  /// lists of parts hash alike (`["ab", "c"]` and `["a", "bc"]` differ),
  /// as 64 lowercase hex digits.
  package static func hexDigest(ofParts parts: [Data]) -> String {
    hexDigest { update in
      let zero: [UInt8] = [0]
      for part in parts {
        part.withUnsafeBytes { update($0) }
        zero.withUnsafeBytes { update($0) }
      }
    }
  }

  /// `hexDigest(ofParts:)` of strings' UTF-8.
  package static func hexDigest(ofParts parts: String...) -> String {
    hexDigest(ofParts: parts.map { Data($0.utf8) })
  }

  /// Runs `feed` with a function that adds bytes to one SHA-256 context,
  /// and returns the digest in hex.
  private static func hexDigest(_ feed: ((UnsafeRawBufferPointer) -> Void) -> Void) -> String {
    _ = OpenSSLSetup.isReady
    let context = EVP_MD_CTX_new()
    defer { EVP_MD_CTX_free(context) }
    var ok = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
    feed { bytes in ok = ok && EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 }
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    ok = ok && EVP_DigestFinal_ex(context, &digest, &length) == 1
    // Fails only when libcrypto cannot allocate a context.
    precondition(ok && length == 32, "libcrypto could not compute SHA-256")
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
