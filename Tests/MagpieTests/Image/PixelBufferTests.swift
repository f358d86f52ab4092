import Testing

@testable import Magpie

@Suite struct PixelBufferTests {
  /// A buffer whose pixel (x, y) is opaque and encodes its own position.
  private func numbered(width: Int, height: Int) -> PixelBuffer {
    var straight = [UInt8]()
    for y in 0..<height {
      for x in 0..<width { straight += [UInt8(x), UInt8(y), UInt8(x * 16 + y), 255] }
    }
    return PixelBuffer(width: width, height: height, straightRGBA: straight)
  }

  @Test func premultipliesAndRestoresStraightAlpha() {
    let straight: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255, 255, 0, 0, 1]
    let buffer = PixelBuffer(width: 2, height: 2, straightRGBA: straight).premultiplied()
    #expect(buffer.alphaRepresentation == .premultiplied)
    #expect(buffer[0, 0] == SIMD4(100, 50, 25, 128))
    #expect(buffer[1, 0] == SIMD4(0, 0, 0, 0))
    #expect(buffer[0, 1] == SIMD4(10, 20, 30, 255))
    #expect(!buffer.isOpaque)
    let back = buffer.straightRGBA()
    // Half alpha keeps about 7 bits per channel; transparent pixels lose colour.
    #expect(zip(back[0..<3], straight[0..<3]).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    #expect(Array(back[4..<8]) == [0, 0, 0, 0])
    #expect(Array(back[8..<12]) == [10, 20, 30, 255])
  }

  @Test func premultiplyRoundsLikeExactArithmetic() {
    for c in 0...255 {
      for a in stride(from: 0, through: 255, by: 5) {
        let expected = UInt8((Double(c * a) / 255).rounded())
        #expect(PixelBuffer.multiplyDivide255(UInt32(c), UInt32(a)) == expected)
      }
    }
  }

  @Test func opaqueFlagFollowsTheData() {
    let buffer = numbered(width: 3, height: 2)
    #expect(buffer.isOpaque)
    var copy = buffer
    copy.withUnsafeMutableBytes { _ in }
    #expect(!copy.isOpaque)
    #expect(buffer.isOpaque)
  }

  @Test(arguments: ImageOrientation.allCases)
  func orientationMovesCornersWhereEXIFSays(orientation: ImageOrientation) {
    // A 3x2 image stored with `orientation`: after applying it, the stored
    // top-left pixel must sit where the EXIF specification puts the
    // "0th row, 0th column".
    let stored = numbered(width: 3, height: 2)
    let upright = stored.applying(orientation)
    #expect(upright.size == orientation.displayedSize(of: stored.size))
    let w = upright.width - 1
    let h = upright.height - 1
    let expectedTopLeftAt: (Int, Int) =
      switch orientation {
      case .up: (0, 0)
      case .upMirrored: (w, 0)
      case .down: (w, h)
      case .downMirrored: (0, h)
      case .leftMirrored: (0, 0)
      case .right: (w, 0)
      case .rightMirrored: (w, h)
      case .left: (0, h)
      }
    #expect(upright[expectedTopLeftAt.0, expectedTopLeftAt.1] == stored[0, 0])
    // Applying it never loses a pixel.
    #expect(Set(upright.packedBytes()) == Set(stored.packedBytes()))
  }

  @Test func orientationRoundTripsThroughItsInverse() {
    let stored = numbered(width: 5, height: 3)
    #expect(stored.applying(.right).applying(.left) == stored)
    #expect(stored.applying(.down).applying(.down) == stored)
    #expect(stored.applying(.leftMirrored).applying(.leftMirrored) == stored)
    #expect(stored.applying(.rightMirrored).applying(.rightMirrored) == stored)
  }
}
