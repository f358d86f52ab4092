/// Where each channel of a 16- or 32-bit BMP pixel lies (`BI_BITFIELDS`,
/// or the fixed 5-5-5 and 8-8-8 layouts of `BI_RGB`), and how a field of
/// any width becomes 8 bits: rounded to nearest, `v * 255 / (2^n - 1)`,
/// as Chromium scales them.
struct BMPBitfields: Equatable {
  /// One channel's mask as a shift and a width in bits (0: absent).
  struct Field: Equatable {
    var shift: Int
    var width: Int

    /// The field of a contiguous `mask`; `nil` when its set bits have gaps.
    init?(mask: UInt32) {
      guard mask != 0 else {
        shift = 0
        width = 0
        return
      }
      shift = mask.trailingZeroBitCount
      let shifted = mask >> UInt32(shift)
      width = (~shifted).trailingZeroBitCount
      guard shifted >> UInt32(width) == 0 else { return nil }
    }

    /// The 8-bit value of this field in `pixel`.
    @inline(__always)
    func value(in pixel: UInt32, table: UnsafePointer<UInt8>?) -> UInt8 {
      guard width > 0 else { return 0 }
      let raw = (UInt64(pixel) >> UInt64(shift)) & ((UInt64(1) << UInt64(width)) - 1)
      if let table { return table[Int(raw)] }
      let top = (UInt64(1) << UInt64(width)) - 1
      return UInt8((raw * 255 + top / 2) / top)
    }

    /// Every raw value's 8-bit value, for fields of up to 16 bits.
    var table: [UInt8]? {
      guard width > 0, width <= 16 else { return nil }
      let top = (1 << width) - 1
      return (0...top).map { UInt8(($0 * 255 + top / 2) / top) }
    }
  }

  /// Red, green, blue and alpha, in that order.
  var fields: [Field]

  /// The fields of `masks` (red, green, blue, alpha) for `bitCount`-bit
  /// pixels; throws when a mask has gaps, masks overlap, a mask reaches
  /// past the pixel, or no colour mask is set.
  init(masks: [UInt32], bitCount: Int) throws(MagpieError) {
    var seen: UInt32 = 0
    var fields: [Field] = []
    for (mask, name) in zip(masks, ["red", "green", "blue", "alpha"]) {
      guard let field = Field(mask: mask) else {
        throw MagpieError(.corruptData, "bmp \(name) mask \(hex(mask)) is not one run of bits")
      }
      guard seen & mask == 0 else { throw MagpieError(.corruptData, "bmp \(name) mask \(hex(mask)) overlaps another") }
      guard bitCount == 32 || mask >> UInt32(bitCount) == 0 else {
        throw MagpieError(.corruptData, "bmp \(name) mask \(hex(mask)) reaches past a \(bitCount)-bit pixel")
      }
      seen |= mask
      fields.append(field)
    }
    guard fields[0].width + fields[1].width + fields[2].width > 0 else {
      throw MagpieError(.corruptData, "bmp bitfields have no colour mask")
    }
    self.fields = fields
  }

  /// `BI_RGB`'s fixed layout for 16-bit (5-5-5) and 32-bit (8-8-8, the top
  /// byte alpha when any pixel sets it) pixels.
  static func defaults(bitCount: Int) -> [UInt32] {
    bitCount == 16 ? [0x7C00, 0x03E0, 0x001F, 0] : [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000]
  }

  /// Whether this is the byte layout B, G, R, A of 32-bit pixels, which
  /// takes a byte-copying path.
  var isByteAlignedBGRA: Bool {
    fields[0] == Field(mask: 0x00FF_0000) && fields[1] == Field(mask: 0x0000_FF00)
      && fields[2] == Field(mask: 0x0000_00FF) && (fields[3].width == 0 || fields[3] == Field(mask: 0xFF00_0000))
  }

  /// Whether the pixels carry alpha.
  var hasAlpha: Bool { fields[3].width > 0 }
}

private func hex(_ mask: UInt32) -> String { "0x" + String(mask, radix: 16, uppercase: true) }
