import Foundation
import Testing

@testable import Magpie

/// Damaged and hostile icons fail with a typed error, from the directory,
/// before any entry is decoded.
@Suite struct ICOHostileInputTests {
  /// An icon directory of `count` entries, each pointing at one 1x1 PNG.
  private func icon(entries count: Int, type: UInt8 = 1) throws -> Data {
    let png = try TestPaths.fixture("ico/pillow-png.ico")
    var data = Data([0, 0, type, 0, UInt8(count & 0xFF), UInt8(count >> 8)])
    let body = png.suffix(from: 6 + 16 * 4)  // the first entry's PNG and the rest
    for _ in 0..<count {
      var entry = Data([16, 16, 0, 0, 1, 0, 32, 0])
      for value in [UInt32(body.count), UInt32(6 + 16 * count)] {
        withUnsafeBytes(of: value.littleEndian) { entry.append(contentsOf: $0) }
      }
      data.append(entry)
    }
    data.append(body)
    return data
  }

  @Test func sixtyFiveThousandEntriesAreRefusedFromTheDirectory() throws {
    let data = try icon(entries: 65_535)
    let error = #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(data) }
    #expect(error?.code == .limitExceeded, "\(String(describing: error))")
    #expect(throws: MagpieError.self) { try CoderRegistry.shared.info(of: data) }
    // A few entries of the same kind decode.
    #expect(try CoderRegistry.shared.decodeSubimages(icon(entries: 3)).count == 3)
  }

  @Test func aDirectoryCutShortIsTruncated() throws {
    let data = try icon(entries: 3).prefix(6 + 16 * 2)
    let error = #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(Data(data)) }
    #expect(error?.code == .truncatedData)
  }

  @Test func entriesOutsideTheFileAreSkippedAndNoneLeftFails() throws {
    var data = try icon(entries: 2)
    // The second entry's offset far past the end: one entry is left.
    data.replaceSubrange((6 + 16 + 12)..<(6 + 16 + 16), with: [0xFF, 0xFF, 0xFF, 0x00])
    #expect(try CoderRegistry.shared.subimages(in: data)?.count == 1)
    data.replaceSubrange((6 + 12)..<(6 + 16), with: [0xFF, 0xFF, 0xFF, 0x00])
    let error = #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(data) }
    #expect(error?.code == .truncatedData)
  }

  @Test func allEntriesTogetherAreBoundedByTheByteLimit() throws {
    var options = DecodeOptions()
    options.maxTotalByteCount = 128 * 128 * 4
    let error = #expect(throws: MagpieError.self) {
      try CoderRegistry.shared.decodeSubimages(TestPaths.fixture("ico/pillow-png.ico"), options: options)
    }
    #expect(error?.code == .imageTooLarge)
  }

  @Test func aBadHeaderIsCorrupt() throws {
    var data = try icon(entries: 1)
    data[2] = 3
    // Type 3 is not sniffed as an icon at all; the coder itself says corrupt.
    #expect(ImageFormat.sniff(data) == .unknown)
    let error = #expect(throws: MagpieError.self) { try ICOCoder().decode(data, options: DecodeOptions()) }
    #expect(error?.code == .corruptData)
  }
}
