import Foundation

/// The rights fields of an EXIF block (IFD0's Copyright, 0x8298, and
/// Artist, 0x013B) as an EXIF block of their own: what an image server
/// keeps when it strips metadata but keeps the copyright, as imgproxy's
/// `keep_copyright` does. Every offset and count is bounds-checked.
package enum EXIFRights {
  /// The tags kept, in the ascending order an IFD lists them.
  static let tags = [0x013B, 0x8298]
  /// A longer value is not a copyright line; it is dropped.
  static let maximumValueBytes = 4096

  /// A little-endian TIFF block holding only `tiff`'s rights fields, or
  /// `nil` when it has none (or does not parse).
  package static func block(from tiff: Data) -> Data? {
    let fields = tiff.withUnsafeBytes { raw -> [(tag: Int, value: [UInt8])] in
      guard let reader = TIFFBytes(raw), let ifd = reader.firstIFD, let count = reader.u16(ifd) else { return [] }
      var found: [(tag: Int, value: [UInt8])] = []
      for index in 0..<min(count, 1024) {
        let entry = ifd + 2 + index * 12
        guard let tag = reader.u16(entry), tags.contains(tag), reader.u16(entry + 2) == 2,
          let length = reader.u32(entry + 4), length > 0, length <= maximumValueBytes,
          let start = length <= 4 ? entry + 8 : reader.u32(entry + 8),
          start >= 0, start + length <= raw.count
        else { continue }
        found.append((tag, Array(raw[start..<start + length])))
      }
      return found.sorted { $0.tag < $1.tag }
    }
    guard !fields.isEmpty else { return nil }
    return write(fields)
  }

  /// A little-endian TIFF header and IFD0 with `fields` (ASCII values),
  /// values longer than four bytes after the IFD.
  private static func write(_ fields: [(tag: Int, value: [UInt8])]) -> Data {
    var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
    func append16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func append32(_ value: Int) { append16(value & 0xFFFF); append16(value >> 16) }
    append16(fields.count)
    var valueOffset = 8 + 2 + fields.count * 12 + 4
    var values: [UInt8] = []
    for field in fields {
      append16(field.tag)
      append16(2)
      append32(field.value.count)
      if field.value.count <= 4 {
        bytes += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
      } else {
        append32(valueOffset)
        values += field.value
        if field.value.count % 2 == 1 { values.append(0) }  // values start on a word boundary
        valueOffset = 8 + 2 + fields.count * 12 + 4 + values.count
      }
    }
    append32(0)  // no next IFD
    return Data(bytes + values)
  }
}
