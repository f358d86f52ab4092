import COpenSSL

/// Signs and verifies transform URLs as imgproxy does: the signature is
/// the URL-safe base64 (no padding) of HMAC-SHA256 under the key of the
/// salt followed by the path after the signature segment, `/` included.
///
/// The key and salt never appear in an error or a description. A
/// signature may be cut to its first bytes (imgproxy's
/// `IMGPROXY_SIGNATURE_SIZE`), for shorter URLs at the cost of security.
public struct URLSigner: Sendable {
  /// The length of a whole signature: 32 bytes of HMAC-SHA256 in base64.
  public static let signatureLength = 43
  private let key: [UInt8]
  private let salt: [UInt8]
  /// The bytes of the HMAC a signature keeps, 1-32.
  public let signatureSize: Int

  /// A signer with `key` (not empty) and `salt` (may be empty), whose
  /// signatures keep the first `signatureSize` bytes (1-32) of the HMAC.
  public init(key: [UInt8], salt: [UInt8], signatureSize: Int = 32) throws(TransformURLError) {
    guard !key.isEmpty else { throw TransformURLError(.configuration, "key: signing needs a key of 1 byte or more") }
    guard (1...32).contains(signatureSize) else {
      throw TransformURLError(.configuration, "signature size: \(signatureSize) bytes is not 1-32")
    }
    self.key = key
    self.salt = salt
    self.signatureSize = signatureSize
  }

  /// A signer with a key and salt written in hex, as imgproxy's
  /// `IMGPROXY_KEY` and `IMGPROXY_SALT` are; an odd count of digits or a
  /// character that is no hex digit is a configuration error.
  public init(hexKey: String, hexSalt: String, signatureSize: Int = 32) throws(TransformURLError) {
    try self.init(
      key: Self.bytes(hex: hexKey, naming: "key"), salt: Self.bytes(hex: hexSalt, naming: "salt"),
      signatureSize: signatureSize)
  }

  /// The signature of `path` (the part after the signature segment).
  public func signature(for path: String) -> String {
    Base64URL.encode(Array(mac(Array(path.utf8)).prefix(signatureSize)))
  }

  /// Whether `signature` is `path`'s, compared in constant time (the time
  /// taken says nothing about how many characters matched).
  public func verifies(_ signature: String, for path: String) -> Bool {
    let expected = Array(self.signature(for: path).utf8)
    let given = Array(signature.utf8)
    // The length is public (set by the configuration); only the content
    // is compared.
    guard given.count == expected.count else { return false }
    return CRYPTO_memcmp(given, expected, expected.count) == 0
  }

  private func mac(_ path: [UInt8]) -> [UInt8] {
    precondition(OpenSSLReady.isReady, "libcrypto could not initialise")
    // One byte more than the message, so the buffer is never empty and its
    // pointer never nil.
    let message = salt + path + [0]
    var digest = [UInt8](repeating: 0, count: 32)
    var length = 0
    let result = key.withUnsafeBytes { keyBytes in
      message.withUnsafeBufferPointer { messageBytes in
        digest.withUnsafeMutableBufferPointer { out in
          EVP_Q_mac(
            nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count, messageBytes.baseAddress,
            messageBytes.count - 1, out.baseAddress, out.count, &length)
        }
      }
    }
    // EVP_Q_mac fails only when libcrypto cannot allocate or lacks HMAC.
    precondition(result != nil && length == 32, "libcrypto could not compute HMAC-SHA256")
    return digest
  }

  private static func bytes(hex text: String, naming name: String) throws(TransformURLError) -> [UInt8] {
    let digits = Array(text.utf8)
    guard digits.count.isMultiple(of: 2) else {
      throw TransformURLError(.configuration, "\(name): an odd number of hex digits (\(digits.count))")
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = HexDigit.value(digits[index]), let low = HexDigit.value(digits[index + 1]) else {
        throw TransformURLError(.configuration, "\(name): a character that is no hex digit")
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

}
