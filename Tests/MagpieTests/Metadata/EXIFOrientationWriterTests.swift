import Foundation
import Testing

@testable import Magpie

@Suite struct EXIFOrientationWriterTests {
  /// A TIFF header and IFD0 with one entry: orientation 8, in either byte order.
  private func tiff(littleEndian: Bool, orientation: UInt16 = 8) -> Data {
    func u16(_ v: UInt16) -> [UInt8] {
      littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }
    func u32(_ v: UInt32) -> [UInt8] {
      littleEndian
        ? (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } : (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) }
    }
    let order: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
    return Data(order + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0))
  }

  @Test(arguments: [true, false])
  func setsTheOrientationToUpright(_ littleEndian: Bool) {
    let input = tiff(littleEndian: littleEndian)
    #expect(input.withUnsafeBytes { EXIFOrientationReader.orientation(inEXIF: $0) } == .left)
    let output = EXIFOrientationWriter.settingUpright(input)
    #expect(output.count == input.count)
    #expect(output.withUnsafeBytes { EXIFOrientationReader.orientation(inEXIF: $0) } == .up)
  }

  @Test func leavesBlocksWithoutATagOrThatDoNotParseAlone() {
    let garbage = Data([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3])
    #expect(EXIFOrientationWriter.settingUpright(garbage) == garbage)
    #expect(EXIFOrientationWriter.settingUpright(Data([1, 2])) == Data([1, 2]))
  }
}
