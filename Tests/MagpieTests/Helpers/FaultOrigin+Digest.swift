import COpenSSL
import Foundation

extension FaultOrigin {
  /// The nonce every challenge names (a test origin needs no freshness).
  static let digestNonce = "dcd98b7102dd2f0e8b11d0f600bfb0c093"

  /// Answers a ``FaultRoute/digest(realm:user:password:body:)`` route.
  func answerDigest(
    _ head: FaultSocket.Head, realm: String, user: String, password: String, body: Data, on socket: FaultSocket
  ) -> Outcome {
    let fields = Self.digestFields(head.headers["authorization"] ?? "")
    let ha1 = Self.md5("\(user):\(realm):\(password)")
    let ha2 = Self.md5("\(head.method):\(fields["uri"] ?? "")")
    let expected = Self.md5(
      "\(ha1):\(Self.digestNonce):\(fields["nc"] ?? ""):\(fields["cnonce"] ?? ""):\(fields["qop"] ?? ""):\(ha2)")
    if fields["username"] == user, fields["nonce"] == Self.digestNonce, fields["response"] == expected {
      let text = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(body.count)\r\n\r\n"
      return socket.write(Data(text.utf8) + body) ? .keepAlive : .clientClosed
    }
    let challenge = "Digest realm=\"\(realm)\", qop=\"auth\", nonce=\"\(Self.digestNonce)\", algorithm=MD5"
    let text = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: \(challenge)\r\nContent-Length: 12\r\n\r\nunauthorized"
    return socket.write(text) ? .keepAlive : .clientClosed
  }

  /// The `name=value` pairs of a `Digest` Authorization field.
  static func digestFields(_ value: String) -> [String: String] {
    guard value.lowercased().hasPrefix("digest ") else { return [:] }
    var fields: [String: String] = [:]
    for part in value.dropFirst(7).split(separator: ",") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2 else { continue }
      let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
      fields[name] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
    }
    return fields
  }

  /// MD5 in lowercase hex, through OpenSSL's EVP interface.
  static func md5(_ text: String) -> String {
    var digest = [UInt8](repeating: 0, count: 16)
    var length: UInt32 = 0
    let bytes = Array(text.utf8)
    _ = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_md5(), nil)
    return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
  }
}
