import Foundation

@testable import Magpie

/// A blue 256x192 JPEG carrying, in an EXIF block written here byte by
/// byte, a red 32x24 thumbnail and an orientation: what cameras write.
enum EXIFThumbnailJPEG {
  /// The thumbnail's JPEG.
  static func thumbnail() throws -> [UInt8] {
    let red = PixelBuffer(
      width: 32, height: 24, straightRGBA: Array(repeating: [230, 20, 20, 255], count: 32 * 24).flatMap { $0 })
    return [UInt8](try CoderRegistry.shared.encode(Image(pixels: red), as: .jpeg, options: EncodeOptions(quality: 95)))
  }

  /// The TIFF block: IFD0 with the orientation, IFD1 pointing at the
  /// thumbnail that follows it (little-endian).
  static func tiff(orientation: Int, thumbnail: [UInt8]) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
    let ifd0 = 8
    let ifd1 = ifd0 + 2 + 12 + 4
    let data = ifd1 + 2 + 2 * 12 + 4
    var tiff: [UInt8] = [0x49, 0x49] + u16(42) + u32(ifd0)
    tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(ifd1)
    tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(data) + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count)
    tiff += u32(0)
    return tiff + thumbnail
  }

  /// The whole file: SOI, the APP1 EXIF segment, then the blue JPEG's
  /// segments. Also where the APP1 segment ends.
  static func bytes(orientation: Int = 6) throws -> (jpeg: [UInt8], exifEnd: Int) {
    let blue = PixelBuffer(
      width: 256, height: 192, straightRGBA: Array(repeating: [20, 30, 220, 255], count: 256 * 192).flatMap { $0 })
    let main = [UInt8](
      try CoderRegistry.shared.encode(Image(pixels: blue), as: .jpeg, options: EncodeOptions(quality: 90)))
    let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff(orientation: orientation, thumbnail: try thumbnail())
    let length = payload.count + 2
    let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return ([0xFF, 0xD8] + app1 + main.dropFirst(2), 2 + app1.count)
  }
}
