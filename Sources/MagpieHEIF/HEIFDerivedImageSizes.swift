import Foundation
import Magpie

/// The output sizes that a HEIF file's derived images (`grid` and `iovl`
/// items) declare in their own data, checked before libheif decodes.
///
/// libheif 1.15 allocates a derived image's canvas at the size its
/// descriptor declares, not the size its `ispe` property says: the fuzzer
/// found a 7 KB file whose 64x48 primary image has an alpha grid over an
/// overlay declaring a canvas of about 700 MB, which libheif (and
/// `heif-convert`) allocated. So every derived image's declared canvas is
/// held to ``DecodeOptions/maxPixelCount`` first.
///
/// The descriptors are found as libheif finds them: the item's type in
/// `iinf`, its extents in `iloc` (in the file, or in `idat`), joined.
/// Whatever cannot be read is left for libheif to report.
struct HEIFDerivedImageSizes {
  /// Each derived item's type and declared canvas, by item.
  private(set) var sizes: [UInt32: (type: String, width: UInt64, height: UInt64)] = [:]
  /// The most tiles any `grid` item declares (0 with no grid): libheif
  /// decodes a grid's tiles side by side, a single picture on one thread.
  private(set) var mostGridTiles = 0

  /// The derived images of `data`.
  init(_ data: Data) {
    data.withUnsafeBytes { bytes in
      guard let meta = HEIFBoxes.child("meta", in: bytes, from: 0, to: bytes.count) else { return }
      let start = meta.lowerBound + 4
      guard let iinf = HEIFBoxes.child("iinf", in: bytes, from: start, to: meta.upperBound),
        let iloc = HEIFBoxes.child("iloc", in: bytes, from: start, to: meta.upperBound)
      else { return }
      let derived = Self.derivedItems(bytes, iinf: iinf)
      guard !derived.isEmpty else { return }
      let idat = HEIFBoxes.child("idat", in: bytes, from: start, to: meta.upperBound)
      let locations = Self.leadingBytes(bytes, iloc: iloc, idat: idat, of: Set(derived.keys))
      for (item, type) in derived {
        guard let descriptor = locations[item], let size = Self.canvas(of: descriptor, type: type) else { continue }
        sizes[item] = (type, size.width, size.height)
        // grid: version, flags, rows - 1, columns - 1.
        if type == "grid" { mostGridTiles = max(mostGridTiles, (Int(descriptor[2]) + 1) * (Int(descriptor[3]) + 1)) }
      }
    }
  }

  /// Throws ``MagpieError/Code/imageTooLarge`` when a derived image
  /// declares a canvas of more than `maxPixelCount` pixels.
  func check(maxPixelCount: Int) throws(MagpieError) {
    for (item, size) in sizes.sorted(by: { $0.key < $1.key }) {
      let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
      if overflow || pixels > UInt64(max(maxPixelCount, 0)) {
        throw MagpieError(
          .imageTooLarge,
          "heic: item \(item) (\(size.type)) declares a \(size.width)x\(size.height) canvas, over the limit of "
            + "\(maxPixelCount) pixels")
      }
    }
  }

  /// The `grid` and `iovl` items listed in `iinf` (item info entries of
  /// version 2 and up, the ones with an item type).
  private static func derivedItems(_ bytes: UnsafeRawBufferPointer, iinf: Range<Int>) -> [UInt32: String] {
    guard let version = HEIFBoxes.uint(bytes, at: iinf.lowerBound, size: 1, end: iinf.upperBound) else { return [:] }
    var offset = iinf.lowerBound + 4 + (version == 0 ? 2 : 4)
    var items: [UInt32: String] = [:]
    while let header = HEIFBoxes.header(in: bytes, at: offset, end: iinf.upperBound), header.size >= header.length,
      header.size <= iinf.upperBound - offset
    {
      let payload = offset + header.length
      offset += header.size
      guard header.type == "infe", let infeVersion = HEIFBoxes.uint(bytes, at: payload, size: 1, end: offset),
        infeVersion >= 2
      else { continue }
      let idSize = infeVersion == 2 ? 2 : 4
      guard let item = HEIFBoxes.uint(bytes, at: payload + 4, size: idSize, end: offset),
        payload + 4 + idSize + 2 + 4 <= offset
      else { continue }
      let typeStart = payload + 4 + idSize + 2
      let type = String(decoding: bytes[typeStart..<(typeStart + 4)], as: Unicode.ASCII.self)
      if type == "grid" || type == "iovl" { items[UInt32(item)] = type }
    }
    return items
  }

  /// The first bytes (up to 32) of the data of each item in `wanted`, its
  /// extents joined, as `iloc` places them in the file (construction
  /// method 0) or in `idat` (1).
  private static func leadingBytes(
    _ bytes: UnsafeRawBufferPointer, iloc: Range<Int>, idat: Range<Int>?, of wanted: Set<UInt32>
  ) -> [UInt32: [UInt8]] {
    let end = iloc.upperBound
    var offset = iloc.lowerBound
    guard let version = HEIFBoxes.uint(bytes, at: offset, size: 1, end: end),
      let sizes = HEIFBoxes.uint(bytes, at: offset + 4, size: 2, end: end)
    else { return [:] }
    let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 15)
    let baseSize = Int(sizes >> 4 & 15), indexSize = version >= 1 ? Int(sizes & 15) : 0
    let countSize = version < 2 ? 2 : 4
    offset += 6
    guard let count = HEIFBoxes.uint(bytes, at: offset, size: countSize, end: end) else { return [:] }
    offset += countSize
    var found: [UInt32: [UInt8]] = [:]
    for _ in 0..<count {
      guard let item = HEIFBoxes.uint(bytes, at: offset, size: countSize, end: end) else { break }
      offset += countSize
      var method: UInt64 = 0
      if version >= 1 {
        guard let field = HEIFBoxes.uint(bytes, at: offset, size: 2, end: end) else { break }
        method = field & 15
        offset += 2
      }
      offset += 2  // data_reference_index
      guard let base = HEIFBoxes.uint(bytes, at: offset, size: baseSize, end: end),
        let extents = HEIFBoxes.uint(bytes, at: offset + baseSize, size: 2, end: end)
      else { break }
      offset += baseSize + 2
      var joined: [UInt8] = []
      for _ in 0..<extents {
        offset += indexSize
        guard let start = HEIFBoxes.uint(bytes, at: offset, size: offsetSize, end: end),
          let length = HEIFBoxes.uint(bytes, at: offset + offsetSize, size: lengthSize, end: end)
        else { return found }
        offset += offsetSize + lengthSize
        let origin = method == 1 ? idat.map { UInt64($0.lowerBound) } : method == 0 ? 0 : nil
        let limit = method == 1 ? idat.map { UInt64($0.upperBound) } : UInt64(bytes.count)
        guard wanted.contains(UInt32(truncatingIfNeeded: item)), let origin, let limit, joined.count < 32 else {
          continue
        }
        // Overflow-safe: each term is below 2^64 only as far as the file goes.
        let (from, o1) = origin.addingReportingOverflow(base)
        let (first, o2) = from.addingReportingOverflow(start)
        guard !o1, !o2, first < limit else { continue }
        let available = min(limit - first, length == 0 ? limit - first : length, UInt64(32 - joined.count))
        joined += bytes[Int(first)..<Int(first + available)]
      }
      if wanted.contains(UInt32(truncatingIfNeeded: item)) { found[UInt32(truncatingIfNeeded: item)] = joined }
    }
    return found
  }

  /// The canvas a `grid` or `iovl` descriptor declares (16-bit sizes, or
  /// 32-bit with flag bit 0), or `nil` when it is too short.
  private static func canvas(of descriptor: [UInt8], type: String) -> (width: UInt64, height: UInt64)? {
    guard descriptor.count >= 2 else { return nil }
    let wide = descriptor[1] & 1 != 0
    // grid: version, flags, rows - 1, columns - 1; iovl: version, flags,
    // four 16-bit fill values.
    let at = type == "grid" ? 4 : 10
    let field = wide ? 4 : 2
    guard descriptor.count >= at + 2 * field else { return nil }
    func read(_ offset: Int) -> UInt64 { descriptor[offset..<(offset + field)].reduce(0) { $0 << 8 | UInt64($1) } }
    return (read(at), read(at + field))
  }
}
