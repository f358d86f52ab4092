import Foundation
import Magpie

/// The extents `iloc` gives each item's data, checked against the bytes
/// they point into before libheif reads them.
///
/// libheif 1.15 sizes its buffer for an item's data from the extent
/// lengths `iloc` declares, before it reads a byte: the fuzzer found a
/// 3.7 KB file whose grid tiles declare extents of hundreds of megabytes,
/// which libheif (and `heif-convert`) allocated, 2.1 GB in all. So an
/// extent that reaches past the end of the file (construction method 0)
/// or of `idat` (method 1) is refused first: the data it declares is not
/// there. Extents of other methods, and whatever cannot be read, are left
/// for libheif to report.
struct HEIFItemLocations {
  /// The first extent found past its data: its item, where it starts, its
  /// declared length, and how many bytes there are.
  private(set) var overrun: (item: UInt64, start: UInt64, length: UInt64, available: UInt64)?

  /// The extents of `data`'s items.
  init(_ data: Data) {
    data.withUnsafeBytes { bytes in
      guard let meta = HEIFBoxes.child("meta", in: bytes, from: 0, to: bytes.count) else { return }
      let start = meta.lowerBound + 4
      guard let iloc = HEIFBoxes.child("iloc", in: bytes, from: start, to: meta.upperBound) else { return }
      let idat = HEIFBoxes.child("idat", in: bytes, from: start, to: meta.upperBound)
      overrun = Self.firstOverrun(bytes, iloc: iloc, idat: idat)
    }
  }

  /// Throws ``MagpieError/Code/truncatedData`` when an item's extent
  /// declares more data than there is.
  func check() throws(MagpieError) {
    guard let overrun else { return }
    throw MagpieError(
      .truncatedData,
      "heic: item \(overrun.item) declares \(overrun.length) bytes at offset \(overrun.start), past the "
        + "\(overrun.available) bytes there are")
  }

  private static func firstOverrun(
    _ bytes: UnsafeRawBufferPointer, iloc: Range<Int>, idat: Range<Int>?
  ) -> (item: UInt64, start: UInt64, length: UInt64, available: UInt64)? {
    let end = iloc.upperBound
    var offset = iloc.lowerBound
    guard let version = HEIFBoxes.uint(bytes, at: offset, size: 1, end: end),
      let sizes = HEIFBoxes.uint(bytes, at: offset + 4, size: 2, end: end)
    else { return nil }
    let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 15)
    let baseSize = Int(sizes >> 4 & 15), indexSize = version >= 1 ? Int(sizes & 15) : 0
    let countSize = version < 2 ? 2 : 4
    offset += 6
    guard let count = HEIFBoxes.uint(bytes, at: offset, size: countSize, end: end) else { return nil }
    offset += countSize
    for _ in 0..<count {
      guard let item = HEIFBoxes.uint(bytes, at: offset, size: countSize, end: end) else { return nil }
      offset += countSize
      var method: UInt64 = 0
      if version >= 1 {
        guard let field = HEIFBoxes.uint(bytes, at: offset, size: 2, end: end) else { return nil }
        method = field & 15
        offset += 2
      }
      offset += 2  // data_reference_index
      guard let base = HEIFBoxes.uint(bytes, at: offset, size: baseSize, end: end),
        let extents = HEIFBoxes.uint(bytes, at: offset + baseSize, size: 2, end: end)
      else { return nil }
      offset += baseSize + 2
      for _ in 0..<extents {
        offset += indexSize
        guard let start = HEIFBoxes.uint(bytes, at: offset, size: offsetSize, end: end),
          let length = HEIFBoxes.uint(bytes, at: offset + offsetSize, size: lengthSize, end: end)
        else { return nil }
        offset += offsetSize + lengthSize
        // Method 0 counts from the file's start, 1 from idat's.
        let available: UInt64
        switch method {
        case 0: available = UInt64(bytes.count)
        case 1: available = UInt64(idat?.count ?? 0)
        default: continue
        }
        let (from, o1) = base.addingReportingOverflow(start)
        let (to, o2) = from.addingReportingOverflow(length)
        if o1 || o2 || to > available { return (item, from, length, available) }
      }
    }
    return nil
  }
}
