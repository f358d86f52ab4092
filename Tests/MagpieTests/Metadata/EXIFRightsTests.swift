import Foundation
import Testing

@testable import Magpie

/// ``EXIFRights``: the copyright and artist of an EXIF block, alone, and
/// nothing read outside the block whatever its offsets and counts say.
struct EXIFRightsTests {
  /// A big-endian block: Make (long, by offset), Artist (3 bytes, inline),
  /// Copyright (long, by offset), in IFD0.
  private static let bigEndian: [UInt8] = {
    var bytes: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 3]
    let copyright = Array("(c) Owner".utf8) + [0]
    let make = Array("Maker".utf8) + [0]
    let values = 8 + 2 + 3 * 12 + 4
    bytes += [0x01, 0x0F, 0, 2, 0, 0, 0, UInt8(make.count), 0, 0, 0, UInt8(values)]
    bytes += [0x01, 0x3B, 0, 2, 0, 0, 0, 3] + Array("Al".utf8) + [0, 0]
    bytes += [0x82, 0x98, 0, 2, 0, 0, 0, UInt8(copyright.count), 0, 0, 0, UInt8(values + make.count)]
    return bytes + [0, 0, 0, 0] + make + copyright
  }()

  @Test func keepsOnlyTheArtistAndCopyrightInALittleEndianBlock() throws {
    let block = try #require(EXIFRights.block(from: Data(Self.bigEndian)))
    let copyright = Array("(c) Owner".utf8) + [0]
    var expected: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0, 2, 0]
    expected += [0x3B, 0x01, 2, 0, 3, 0, 0, 0] + Array("Al".utf8) + [0, 0]
    expected += [0x98, 0x82, 2, 0, UInt8(copyright.count), 0, 0, 0, 38, 0, 0, 0]
    expected += [0, 0, 0, 0] + copyright
    #expect([UInt8](block) == expected)
    // What it wrote reads back the same.
    #expect(EXIFRights.block(from: block) == block)
  }

  @Test func aBlockWithoutThemGivesNothing() {
    var bytes = Self.bigEndian
    bytes[10 + 12] = 0x02  // Artist becomes tag 0x023B
    bytes[10 + 24] = 0x83  // Copyright becomes 0x8398
    #expect(EXIFRights.block(from: Data(bytes)) == nil)
    #expect(EXIFRights.block(from: Data("not a TIFF block".utf8)) == nil)
  }

  /// A block with only the Artist: header, one entry, no next IFD.
  private static let artistOnlySize = 8 + 2 + 12 + 4

  @Test func offsetsAndCountsOutsideTheBlockDropTheField() throws {
    var beyond = Self.bigEndian
    beyond[10 + 24 + 11] = 0xF0  // Copyright's value past the end
    let artistOnly = try #require(EXIFRights.block(from: Data(beyond)))
    #expect(artistOnly.count == Self.artistOnlySize)
    var huge = Self.bigEndian
    huge[10 + 24 + 4] = 0x7F  // a count of two billion bytes
    let hugeDropped = EXIFRights.block(from: Data(huge))
    #expect(hugeDropped?.count == Self.artistOnlySize)
    var many = Self.bigEndian
    many[8] = 0xFF  // 65,000 entries in a block of three
    many[9] = 0xFF
    #expect(EXIFRights.block(from: Data(many)) != nil)
    // Every truncation parses or gives nothing; none reads past the end.
    for length in 0..<Self.bigEndian.count {
      _ = EXIFRights.block(from: Data(Self.bigEndian.prefix(length)))
    }
  }
}
