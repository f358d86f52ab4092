#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  /// Signatures: known answers, tampering, lengths, `unsafe`, hex keys and
  /// the path builder.
  @Suite struct URLSignerTests {
    // imgproxy's example key and salt (its examples/signature.* files).
    static let keyHex = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let saltHex = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    let signer = try! URLSigner(hexKey: keyHex, hexSalt: saltHex)
    let path = "/rs:fill:300:200/g:sm/plain/http%3A%2F%2Fexample.com%2Fa.jpg@webp"

    /// The signature imgproxy's examples print for their basic-format
    /// path, which Python's hmac gives too (checked when this was written).
    @Test func knownAnswerFromImgproxysExamples() {
      let path = "/fill/300/300/no/1/aHR0cDovL2ltZy5leGFtcGxlLmNvbS9wcmV0dHkvaW1hZ2UuanBn.png"
      #expect(signer.signature(for: path) == "_PQ4ytCQMMp-1w1m_vP6g8Qb-Q7yF9mwghf6PddqxLw")
    }

    /// Python's hmac and base64 (an implementation that shares no code
    /// with OpenSSL's) over keys, salts and paths of several shapes.
    @Test func pythonAgreesOnKeysSaltsAndPaths() throws {
      let cases: [(key: String, salt: String, path: String)] = [
        (Self.keyHex, Self.saltHex, path), ("00", "", "/"),
        ("ff" + String(repeating: "ab", count: 100), "01", "/w:1/é/日本"),
        ("736563726574", "68656c6c6f", "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg"),
      ]
      let lines = cases.map { "\($0.key)\t\($0.salt)\t\($0.path)" }.joined(separator: "\n")
      let program = """
        import base64, hashlib, hmac, sys
        for line in open(sys.argv[1], encoding='utf-8').read().split('\\n'):
            key, salt, path = line.split('\\t')
            mac = hmac.new(bytes.fromhex(key), bytes.fromhex(salt) + path.encode(), hashlib.sha256).digest()
            print(base64.urlsafe_b64encode(mac).rstrip(b'=').decode())
        """
      let printed = try ReferenceTool.run(
        "python3", ["-c", program, "IN"], input: Data(lines.utf8), inputName: "cases.tsv"
      ).stdout
      let expected = printed.split(separator: "\n").map(String.init)
      try #require(expected.count == cases.count)
      for (index, entry) in cases.enumerated() {
        let signer = try URLSigner(hexKey: entry.key, hexSalt: entry.salt)
        #expect(signer.signature(for: entry.path) == expected[index], "\(entry.path)")
        #expect(signer.signature(for: entry.path).utf8.count == URLSigner.signatureLength)
      }
    }

    /// A signature cut to its first bytes (imgproxy's
    /// `IMGPROXY_SIGNATURE_SIZE`) is Python's HMAC cut the same way; the
    /// whole one no longer verifies, nor a size outside 1-32.
    @Test(arguments: [1, 8, 31])
    func truncatedSignaturesArePythonsPrefix(size: Int) throws {
      let program = """
        import base64, hashlib, hmac, sys
        mac = hmac.new(bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]) + sys.argv[3].encode(), hashlib.sha256)
        print(base64.urlsafe_b64encode(mac.digest()[:int(sys.argv[4])]).rstrip(b'=').decode())
        """
      let printed = try ReferenceTool.run(
        "python3", ["-c", program, Self.keyHex, Self.saltHex, path, "\(size)"], input: Data(), inputName: "none"
      ).stdout
      let short = try URLSigner(hexKey: Self.keyHex, hexSalt: Self.saltHex, signatureSize: size)
      let signature = short.signature(for: path)
      #expect(signature == printed.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(short.verifies(signature, for: path))
      #expect(!short.verifies(signer.signature(for: path), for: path))
      #expect(!signer.verifies(signature, for: path))
      #expect(throws: TransformURLError.self) { try URLSigner(hexKey: Self.keyHex, hexSalt: "", signatureSize: 33) }
      #expect(throws: TransformURLError.self) { try URLSigner(hexKey: Self.keyHex, hexSalt: "", signatureSize: 0) }
    }

    @Test func verifiesItsOwnSignatureAndNothingElse() {
      let signature = signer.signature(for: path)
      #expect(signer.verifies(signature, for: path))
      // Tampered path: each character in turn changed.
      for offset in [1, 5, path.count / 2, path.count - 1] {
        var tampered = Array(path)
        tampered[offset] = tampered[offset] == "x" ? "y" : "x"
        #expect(!signer.verifies(signature, for: String(tampered)), "path changed at \(offset)")
      }
      #expect(!signer.verifies(signature, for: path + "/"))
      // Tampered signature: every position flipped to another character.
      for offset in 0..<signature.count {
        var tampered = Array(signature)
        tampered[offset] = tampered[offset] == "A" ? "B" : "A"
        #expect(!signer.verifies(String(tampered), for: path), "signature changed at \(offset)")
      }
      // Wrong lengths: truncated (imgproxy's signature_size is not
      // supported), extended, padded, empty.
      for wrong in [String(signature.dropLast()), signature + "A", signature + "=", "", String(signature.prefix(8))] {
        #expect(!signer.verifies(wrong, for: path), "\(wrong)")
      }
      // Another key or salt signs differently.
      let otherSalt = try! URLSigner(hexKey: Self.keyHex, hexSalt: "00")
      #expect(!otherSalt.verifies(signature, for: path))
    }

    @Test func theParserChecksSignaturesWhenSigningIsOn() throws {
      let parser = try TransformURLParser(signer: signer)
      let signed = "/\(signer.signature(for: path))\(path)"
      let request = try parser.parse(signed)
      #expect(request.signedPath == path && request.options.format == .webp)
      let refusals = [
        "/unsafe\(path)",
        "/\(signer.signature(for: path))/rs:fill:300:201/g:sm/plain/http%3A%2F%2Fexample.com%2Fa.jpg@webp",
        "/\(signer.signature(for: path).dropLast())\(path)", "/\(String(repeating: "A", count: 43))\(path)", path,
        "/" + path, "/\(signer.signature(for: path))",
      ]
      for refused in refusals {
        do {
          _ = try parser.parse(refused)
          Issue.record("\(refused) was accepted")
        } catch {
          #expect(error.status == 403, "\(refused): \(error)")
        }
      }
      #expect(throws: TransformURLError(.forbidden, "signature: signing is on, `unsafe` paths are refused")) {
        try parser.parse("/unsafe\(path)")
      }
      // The signature is checked before the options: a signed bad option
      // is a 400, an unsigned one a 403.
      let badOption = "/w:99999/plain/http://example.com/a.jpg"
      #expect(throws: TransformURLError(.badRequest, "w: 99999 is outside 0-16384")) {
        try parser.parse("/\(signer.signature(for: badOption))\(badOption)")
      }
      #expect((try? parser.parse("/unsafe\(badOption)")) == nil)
    }

    @Test func hexKeysAndSalts() throws {
      let upper = try URLSigner(hexKey: Self.keyHex.uppercased(), hexSalt: Self.saltHex.uppercased())
      #expect(upper.signature(for: path) == signer.signature(for: path))
      let bytes = try URLSigner(key: [0x73, 0x65, 0x63, 0x72, 0x65, 0x74], salt: [])
      #expect(try URLSigner(hexKey: "736563726574", hexSalt: "").signature(for: path) == bytes.signature(for: path))
      let bad: [(String, String, String)] = [
        ("abc", "", "key: an odd number of hex digits (3)"), ("zz", "", "key: a character that is no hex digit"),
        ("", "00", "key: signing needs a key of 1 byte or more"), ("00", "0", "salt: an odd number of hex digits (1)"),
        ("00", "0g", "salt: a character that is no hex digit"), ("0 ", "", "key: a character that is no hex digit"),
      ]
      for (key, salt, reason) in bad {
        #expect(throws: TransformURLError(.configuration, reason)) { try URLSigner(hexKey: key, hexSalt: salt) }
      }
    }

    @Test(arguments: TransformSourceEncoding.allCases)
    func signedPathsParseBackToTheirOptions(_ encoding: TransformSourceEncoding) throws {
      var options = TransformOptions()
      (options.resizingType, options.width, options.gravity) = (.fill, 320, .focusPoint(x: 0.3, y: 0.6))
      (options.quality, options.background) = (75, RGBAColor(red: 1, green: 2, blue: 3))
      let source = try #require(URL(string: "https://example.com/a%20b/%C3%BC.jpg?x=1&y=@2#frag"))
      let parser = try TransformURLParser(signer: signer)
      let built = signer.signedPath(options: options, source: source, format: .avif, encoding: encoding)
      let request = try parser.parse(built)
      var expected = options
      expected.format = .avif
      #expect(request.options == expected && request.source == source, "\(built)")
      let unsafe = URLSigner.unsafePath(options: options, source: source, encoding: encoding)
      #expect(try TransformURLParser().parse(unsafe).options == options)
      #expect(unsafe.hasPrefix("/unsafe/rt:fill/w:320/g:fp:0.3:0.6/q:75/bg:010203/"))
    }
  }
#endif
