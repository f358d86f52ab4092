import COpenSSL
import Foundation

/// SHA-256 for cache keys and ETags.
enum Digest {
  /// The hex SHA-256 of `parts`, each followed by a zero byte so that no
  /// two lists of parts hash alike.
  static func hex(_ parts: [Data]) -> String {
    let context = EVP_MD_CTX_new()
    defer { EVP_MD_CTX_free(context) }
    var ok = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
    var zero: UInt8 = 0
    for part in parts {
      ok = ok && part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
      ok = ok && EVP_DigestUpdate(context, &zero, 1) == 1
    }
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    ok = ok && EVP_DigestFinal_ex(context, &digest, &length) == 1
    // Fails only when libcrypto cannot allocate a context.
    precondition(ok && length == 32, "libcrypto could not compute SHA-256")
    return digest.map { String(format: "%02x", $0) }.joined()
  }

  /// `hex` of strings.
  static func hex(_ parts: String...) -> String { hex(parts.map { Data($0.utf8) }) }
}
