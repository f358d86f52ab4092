/// Watches JPEG bytes as they arrive and says when a new scan of a
/// progressive JPEG has arrived in full, so a partial decode can show it.
///
/// Entropy-coded data never contains `FF DA` (libjpeg stuffs `FF 00` and
/// restart markers are `FF D0`-`FF D7`), so counting start-of-scan markers
/// counts scans. A scan is complete when the next one (or the end) begins.
struct ProgressiveJPEGScanner {
  /// Whether the frame header said progressive (SOF2); `nil` until seen.
  private(set) var isProgressive: Bool?
  /// Start-of-scan markers seen so far.
  private(set) var scansStarted = 0
  private var offset = 2

  /// Scans that have arrived in full: every scan but the one still arriving.
  var completeScans: Int { max(0, scansStarted - 1) }

  /// Reads the bytes added since the last call.
  mutating func update(with data: UnsafeRawBufferPointer) {
    guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
      isProgressive = false
      return
    }
    while offset + 1 < data.count {
      guard data[offset] == 0xFF else {
        offset += 1
        continue
      }
      let marker = data[offset + 1]
      if isProgressive == nil {
        if marker == 0xC2 {
          isProgressive = true
        } else if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
          isProgressive = false
        }
      }
      if marker == 0xDA { scansStarted += 1 }
      offset += 2
    }
  }
}
