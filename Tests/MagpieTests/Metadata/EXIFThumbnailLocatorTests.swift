import Foundation
import Testing

@testable import Magpie

/// Finding a camera's EXIF thumbnail in the bytes of a JPEG so far.
@Suite struct EXIFThumbnailLocatorTests {
  private func locate(_ bytes: some Collection<UInt8>) -> EXIFThumbnailLocator.Outcome {
    Array(bytes).withUnsafeBytes { EXIFThumbnailLocator.locate(in: $0) }
  }

  @Test func theThumbnailIsFoundOnceItsSegmentHasArrivedWithTheOrientation() throws {
    let (jpeg, exifEnd) = try EXIFThumbnailJPEG.bytes(orientation: 6)
    let thumbnail = try EXIFThumbnailJPEG.thumbnail()
    #expect(locate(jpeg.prefix(1)) == .needsMoreData)
    #expect(locate(jpeg.prefix(exifEnd - 1)) == .needsMoreData)
    guard case .found(let range, let orientation) = locate(jpeg.prefix(exifEnd)) else {
      Issue.record("not found")
      return
    }
    #expect(Array(jpeg[range]) == thumbnail)
    #expect(orientation == .right)
    #expect(locate(jpeg) == .found(range, orientation))
  }

  @Test func aJPEGWithoutOneOrAnotherFormatHasNone() throws {
    let plain = [UInt8](
      try CoderRegistry.shared.encode(
        Image(pixels: PixelBuffer(width: 8, height: 8, straightRGBA: [UInt8](repeating: 200, count: 256))), as: .jpeg))
    #expect(locate(plain) == .absent)
    #expect(locate([0x89, 0x50, 0x4E, 0x47]) == .absent)
  }

  @Test func lyingOffsetsFindNothing() throws {
    let thumbnail = try EXIFThumbnailJPEG.thumbnail()
    var tiff = EXIFThumbnailJPEG.tiff(orientation: 1, thumbnail: thumbnail)
    // IFD1's thumbnail length (the last entry's value) made far too long.
    let lengthAt = 8 + 2 + 12 + 4 + 2 + 12 + 8
    tiff[lengthAt + 2] = 0x7F
    let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
    let length = payload.count + 2
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xDA]
    #expect(locate(bytes) == .absent)
  }

  @Test func damagedBlocksNeverReachOutsideTheBytes() throws {
    let (jpeg, exifEnd) = try EXIFThumbnailJPEG.bytes()
    var generator = SplitMix64(seed: 37)
    for _ in 0..<2_000 {
      var bytes = Array(jpeg[..<exifEnd])
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
      }
      let cut = Int.random(in: 0...bytes.count, using: &generator)
      if case .found(let range, _) = locate(bytes.prefix(cut)) {
        #expect(range.lowerBound >= 0 && range.upperBound <= cut)
      }
    }
  }
}
