import Foundation

extension ImageFormat {
  /// The format of encoded image bytes, decided by their content alone.
  public static func sniff(_ data: Data) -> ImageFormat {
    sniffDetails(data).format
  }

  /// The format of encoded image bytes plus what the container header says
  /// about animation and WebP's compression.
  public static func sniffDetails(_ data: Data) -> FormatDetails {
    data.withUnsafeBytes { sniffDetails(bytes: $0) }
  }

  /// Sniffs raw bytes; reads at most the header chunks it needs.
  public static func sniffDetails(bytes b: UnsafeRawBufferPointer) -> FormatDetails {
    func has(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      guard b.count >= offset + prefix.count else { return false }
      for (i, byte) in prefix.enumerated() where b[offset + i] != byte { return false }
      return true
    }
    if has([0xFF, 0xD8, 0xFF]) { return FormatDetails(format: .jpeg) }
    if has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      let animated = pngHasAnimationControl(b)
      return FormatDetails(format: animated ? .apng : .png, isAnimated: animated)
    }
    if has(Array("GIF87a".utf8)) || has(Array("GIF89a".utf8)) { return FormatDetails(format: .gif) }
    if has(Array("RIFF".utf8)) && has(Array("WEBP".utf8), at: 8) { return webPDetails(b) }
    // JPEG XL: the bare codestream's marker, or the container's signature box.
    if has([0xFF, 0x0A]) || has([0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A]) {
      return FormatDetails(format: .jxl)
    }
    if has(Array("ftyp".utf8), at: 4), let format = isoMediaFormat(b) { return FormatDetails(format: format) }
    // TIFF (version 42) and BigTIFF (43), either byte order.
    if has([0x49, 0x49, 0x2A, 0x00]) || has([0x4D, 0x4D, 0x00, 0x2A]) || has([0x49, 0x49, 0x2B, 0x00])
      || has([0x4D, 0x4D, 0x00, 0x2B])
    {
      return FormatDetails(format: .tiff)
    }
    if has(Array("BM".utf8)) && b.count >= 18 {
      let dibSize = Int(b[14]) | Int(b[15]) << 8 | Int(b[16]) << 16 | Int(b[17]) << 24
      if [12, 16, 40, 52, 56, 64, 108, 124].contains(dibSize) { return FormatDetails(format: .bmp) }
    }
    // Icons (type 1) and cursors (type 2), as the MIME sniffing standard has them.
    if (has([0x00, 0x00, 0x01, 0x00]) || has([0x00, 0x00, 0x02, 0x00])) && b.count >= 6 && (b[4] != 0 || b[5] != 0) {
      return FormatDetails(format: .ico)
    }
    if has(Array("%PDF-".utf8)) { return FormatDetails(format: .pdf) }
    // EBML: WebM and Matroska, whose doctype follows within the header.
    if has([0x1A, 0x45, 0xDF, 0xA3]) { return FormatDetails(format: .webm) }
    if looksLikeSVG(b) { return FormatDetails(format: .svg) }
    return FormatDetails(format: .unknown)
  }

  private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    Int(b[offset]) << 24 | Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3])
  }

  private static func littleEndian32(_ b: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    Int(b[offset]) | Int(b[offset + 1]) << 8 | Int(b[offset + 2]) << 16 | Int(b[offset + 3]) << 24
  }

  private static func fourCC(_ b: UnsafeRawBufferPointer, _ offset: Int) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: b[offset..<(offset + 4)]), as: UTF8.self)
  }

  /// APNG: an `acTL` chunk appears before the first `IDAT`.
  private static func pngHasAnimationControl(_ b: UnsafeRawBufferPointer) -> Bool {
    var offset = 8
    while offset + 8 <= b.count {
      let length = bigEndian32(b, offset)
      let type = fourCC(b, offset + 4)
      if type == "acTL" { return true }
      if type == "IDAT" || type == "IEND" { return false }
      // length + type + data + CRC; a lying length just ends the walk.
      let next = offset + 12 + length
      guard length >= 0, next > offset else { return false }
      offset = next
    }
    return false
  }

  private static func webPDetails(_ b: UnsafeRawBufferPointer) -> FormatDetails {
    guard b.count >= 16 else { return FormatDetails(format: .webp) }
    switch fourCC(b, 12) {
    case "VP8L": return FormatDetails(format: .webp, isLossless: true)
    case "VP8X":
      guard b.count >= 21 else { return FormatDetails(format: .webp) }
      if b[20] & 0x02 != 0 { return FormatDetails(format: .webp, isAnimated: true) }
      // Extended still image: the bitstream chunk after ICCP/ALPH/... says which.
      var offset = 12
      while offset + 8 <= b.count {
        let type = fourCC(b, offset)
        if type == "VP8L" { return FormatDetails(format: .webp, isLossless: true) }
        if type == "VP8 " { return FormatDetails(format: .webp) }
        let size = littleEndian32(b, offset + 4)
        offset += 8 + size + (size & 1)
      }
      return FormatDetails(format: .webp)
    default:
      return FormatDetails(format: .webp)
    }
  }

  /// AVIF, HEIC, MOV or MP4 from the `ftyp` box's major and compatible brands.
  private static func isoMediaFormat(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
    guard b.count >= 16 else { return nil }
    let boxSize = min(bigEndian32(b, 0), b.count)
    var brands = [fourCC(b, 8)]
    var offset = 16
    while offset + 4 <= boxSize {
      brands.append(fourCC(b, offset))
      offset += 4
    }
    if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
    let heif: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
    if brands.contains(where: heif.contains) { return .heic }
    if brands.contains("qt  ") { return .mov }
    let mp4: Set = [
      "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "M4V ", "dash", "3gp4", "3gp5", "3gp6",
      "3g2a", "mmp4", "MSNV", "f4v ",
    ]
    if brands.contains(where: mp4.contains) { return .mp4 }
    return nil
  }

  /// An XML (or bare) document whose first element is `<svg`.
  private static func looksLikeSVG(_ b: UnsafeRawBufferPointer) -> Bool {
    let window = UnsafeRawBufferPointer(rebasing: b[0..<min(b.count, 4096)])
    var text = Substring(String(decoding: window, as: UTF8.self))
    if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
    while true {
      text = text.drop(while: { $0.isWhitespace })
      if text.hasPrefix("<svg") { return true }
      let skippable: [(open: String, close: String)] = [("<?", "?>"), ("<!--", "-->"), ("<!", ">")]
      guard let rule = skippable.first(where: { text.hasPrefix($0.open) }),
        let end = text.range(of: rule.close)
      else { return false }
      text = text[end.upperBound...]
    }
  }
}

/// What sniffing the first bytes of an image tells beyond its format.
public struct FormatDetails: Sendable, Equatable {
  /// The format.
  public var format: ImageFormat
  /// Whether the container says the image is animated (APNG, animated WebP;
  /// GIF only knows once its frames are counted, so this is false for GIF).
  public var isAnimated: Bool
  /// Whether the data is WebP lossless (`VP8L`); false for every other format.
  public var isLossless: Bool

  /// Creates details for a format.
  public init(format: ImageFormat, isAnimated: Bool = false, isLossless: Bool = false) {
    self.format = format
    self.isAnimated = isAnimated
    self.isLossless = isLossless
  }
}
