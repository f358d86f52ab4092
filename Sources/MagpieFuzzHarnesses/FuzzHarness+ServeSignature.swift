#if canImport(MagpieServer)
  import Foundation
  import MagpieServer

  extension FuzzHarness {
    /// `magpie serve`'s URL signer. The input is split at its first three
    /// newlines into key, salt, path and signature: the key and salt as
    /// hex through the hex constructor (which may refuse them) and as raw
    /// bytes; the constant-time verification must agree with comparing
    /// the recomputed signature, and a signing parser must accept a path
    /// only when its signature verifies (traps otherwise).
    static let serveSignature = FuzzHarness(
      name: "serve-signature",
      seedTexts: [
        "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881\n"
          + "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5\n"
          + "/fill/300/300/no/1/aHR0cDovL2ltZy5leGFtcGxlLmNvbS9wcmV0dHkvaW1hZ2UuanBn.png\n"
          + "_PQ4ytCQMMp-1w1m_vP6g8Qb-Q7yF9mwghf6PddqxLw",
        "736563726574\n68656c6c6f\n/rs:fit:300:300/plain/http://example.com/a.jpg\nunsafe",
        "k\n\n/w:1/plain/http://a/b\n", "k\n\n/w:1/plain/http://a/b\n" + String(repeating: "A", count: 43),
        "00\n0\n/\n_PQ4ytCQMMp-1w1m_vP6g8Qb-Q7yF9mwghf6PddqxL",
      ],
      maxLength: 4 << 10
    ) { data in
      let parts = data.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
      let field = { (index: Int) in index < parts.count ? Array(parts[index]) : [] }
      let path = String(decoding: field(2), as: UTF8.self)
      let signature = String(decoding: field(3), as: UTF8.self)
      var signers: [URLSigner] = []
      if let signer = try? URLSigner(key: field(0), salt: field(1)) { signers.append(signer) }
      let hex = (String(decoding: field(0), as: UTF8.self), String(decoding: field(1), as: UTF8.self))
      if let signer = try? URLSigner(hexKey: hex.0, hexSalt: hex.1) { signers.append(signer) }
      // A truncated signature, its size from the path's length.
      let size = 1 + path.utf8.count % 32
      if let signer = try? URLSigner(key: field(0), salt: field(1), signatureSize: size) { signers.append(signer) }
      for signer in signers {
        let expected = signer.signature(for: path)
        // Unpadded base64: 4 characters per 3 bytes, a partial group 1 more.
        let length = (signer.signatureSize * 4 + 2) / 3
        guard expected.utf8.count == length, signer.verifies(expected, for: path) else {
          fatalError("serve-signature: \(expected) is no signature of its own path")
        }
        guard signer.verifies(signature, for: path) == (signature == expected) else {
          fatalError("serve-signature: verifying \(signature) disagrees with comparing it to \(expected)")
        }
        guard let parser = try? TransformURLParser(signer: signer) else { fatalError("no parser without presets") }
        do throws(TransformURLError) {
          let request = try parser.parse("/" + signature + path)
          guard signer.verifies(request.signature, for: request.signedPath) else {
            fatalError("serve-signature: a path with a wrong signature parsed")
          }
        } catch {
          // A signature that verifies is never refused as forbidden, where
          // the parser splits the path back into the same two parts.
          let splitsBack = !signature.contains("/") && !(signature + path).contains("?") && (path.first ?? "/") == "/"
          if error.kind == .forbidden, splitsBack, signer.verifies(signature, for: path) {
            fatalError("serve-signature: a verified path was refused: \(error)")
          }
        }
      }
    }
  }
#endif
