/// URL-safe base64 (RFC 4648 §5: `-` and `_` for `+` and `/`) without
/// padding, as imgproxy writes sources and signatures.
enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `bytes` encoded, without `=` padding.
  static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    let input = Array(bytes)
    var output = [UInt8]()
    output.reserveCapacity((input.count * 4 + 2) / 3)
    var index = 0
    while index < input.count {
      let chunk = input[index..<min(index + 3, input.count)]
      var group = UInt32(0)
      for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * offset) }
      for position in 0...chunk.count { output.append(alphabet[Int((group >> (18 - 6 * position)) & 0x3F)]) }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes, `nil` when it holds a character outside
  /// the alphabet or has an impossible length. Trailing `=` are ignored and
  /// so are the unused low bits of the last character, as Go's decoder
  /// (imgproxy's) ignores them.
  static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    var symbols = Array(text)
    while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
    guard symbols.count % 4 != 1 else { return nil }
    var output = [UInt8]()
    output.reserveCapacity(symbols.count * 3 / 4)
    var group = UInt32(0)
    var bits = 0
    for symbol in symbols {
      guard let value = sextet(symbol) else { return nil }
      group = group << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
        group &= (1 << UInt32(bits)) - 1
      }
    }
    return output
  }

  private static func sextet(_ symbol: UInt8) -> UInt8? {
    switch symbol {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
