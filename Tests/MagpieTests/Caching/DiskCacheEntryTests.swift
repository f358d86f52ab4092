import Foundation
import Testing

@testable import Magpie

/// The disk-cache entry format as a value: what a good entry looks like
/// byte by byte, and that every truncation and every single-bit flip of one
/// is refused.
@Suite struct DiskCacheEntryTests {
  private let payload = Data("a small payload, 33 bytes long..!".utf8)

  @Test func theHeaderIsMagicVersionLengthAndChecksum() throws {
    let entry = DiskCacheEntry.encode(payload)
    #expect(entry.count == 20 + payload.count)
    #expect(Array(entry.prefix(8)) == [0x4D, 0x47, 0x50, 0x43, 1, 0, 0, 0])
    #expect(Array(entry[8..<16]) == [33, 0, 0, 0, 0, 0, 0, 0])
    // The checksum, checked against the table-driven CRC-32 the PNG code
    // uses: an independent implementation of the same ISO 3309 polynomial.
    let expected = CRC32.checksum(Array(entry.prefix(16)) + Array(payload))
    let stored = entry[16..<20].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(stored == expected)
    #expect(try DiskCacheEntry.parse(entry) == payload)
    #expect(try DiskCacheEntry.parse(DiskCacheEntry.encode(Data())) == Data())
  }

  @Test func everyTruncationIsRefused() {
    let entry = DiskCacheEntry.encode(payload)
    for length in 0..<entry.count {
      #expect(throws: MagpieError.self, "cut at \(length)") { try DiskCacheEntry.parse(entry.prefix(length)) }
    }
    #expect(throws: MagpieError.self) { try DiskCacheEntry.parse(entry + Data([0])) }
  }

  @Test func everySingleBitFlipIsRefused() {
    let entry = DiskCacheEntry.encode(payload)
    for bit in 0..<entry.count * 8 {
      var flipped = entry
      flipped[bit / 8] ^= 1 << UInt8(bit % 8)
      #expect(throws: MagpieError.self, "bit \(bit)") { try DiskCacheEntry.parse(flipped) }
    }
  }

  @Test func oldFormatFilesAndOtherVersionsAreRefused() throws {
    // A bare PNG, as the cache stored before entries had a header.
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 40))
    #expect(throws: MagpieError.self) { try DiskCacheEntry.parse(png) }
    var future = DiskCacheEntry.encode(payload)
    future[4] = 2
    do {
      _ = try DiskCacheEntry.parse(future)
      Issue.record("version 2 was accepted")
    } catch {
      #expect(error.reason.contains("format version 2"))
    }
  }

  @Test func aPayloadOverTheLimitIsRefusedFromTheHeaderAlone() throws {
    let entry = DiskCacheEntry.encode(payload)
    do {
      _ = try DiskCacheEntry.parse(entry, maximumPayload: 32)
      Issue.record("a 33-byte payload passed a 32-byte limit")
    } catch {
      #expect(error.reason.contains("maximumEntrySize (32 bytes)"))
      #expect(error.reason.contains("33 bytes"))
    }
    // A header declaring a huge payload is refused before any payload is
    // touched: only the 20 header bytes exist.
    var header = Array(entry.prefix(20))
    header.replaceSubrange(8..<16, with: [0, 0, 0, 0, 0, 0, 0, 0x40])
    let parsed = header.withUnsafeBytes { raw in
      Result { () throws(MagpieError) in try DiskCacheEntry.parseHeader(raw, fileSize: 20, maximumPayload: 64 << 20) }
    }
    guard case .failure(let error) = parsed else {
      Issue.record("accepted a header declaring 2^62 bytes")
      return
    }
    #expect(error.reason.contains("exceeds maximumEntrySize (67108864 bytes)"))
  }
}
