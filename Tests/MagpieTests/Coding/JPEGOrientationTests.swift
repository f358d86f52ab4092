import Foundation
import Testing

@testable import Magpie

/// EXIF orientation: `orientN.jpg` stores one upright 40x24 pattern turned so
/// that tag N shows it upright (the fixture script checks that with Pillow's
/// `exif_transpose`); every decode must equal that pattern.
@Suite struct JPEGOrientationTests {
  typealias Support = JPEGSupportForTests

  /// Quality 100, 4:4:4 and flat cells aligned with JPEG blocks keep the
  /// pattern within a few levels; a wrong turn moves whole cells of random
  /// colours and misses by far more.
  static let tolerance = 4

  @Test(arguments: 1...8)
  func decodesUpright(tag: Int) throws {
    let data = try Support.fixture("orient\(tag).jpg")
    let image = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(image.orientation.rawValue == tag)
    #expect(image.pixelSize == PixelSize(width: 40, height: 24))
    let upright = [UInt8](try Support.fixture("orient_upright.rgb"))
    #expect(Support.maxDifference(Support.rgb(image.pixels), upright) <= Self.tolerance)
  }

  @Test func patternIsNotSymmetric() throws {
    // Guards the test above: every turn of the pattern differs from it.
    let image = try JPEGCoder().decode(try Support.fixture("orient1.jpg"), options: DecodeOptions())
    let upright = [UInt8](try Support.fixture("orient_upright.rgb"))
    for orientation in [ImageOrientation.upMirrored, .down, .downMirrored] {
      let turned = Support.rgb(image.pixels.applying(orientation))
      #expect(Support.maxDifference(turned, upright) > 40, "\(orientation)")
    }
  }

  @Test(arguments: 1...8)
  func leavesStoredPixelsWhenAsked(tag: Int) throws {
    var options = DecodeOptions()
    options.appliesOrientation = false
    let image = try JPEGCoder().decode(try Support.fixture("orient\(tag).jpg"), options: options)
    #expect(image.orientation.rawValue == tag)
    #expect(image.pixelSize == (tag >= 5 ? PixelSize(width: 24, height: 40) : PixelSize(width: 40, height: 24)))
  }

  @Test(arguments: 1...8)
  func infoReportsDisplayedSize(tag: Int) throws {
    let data = try Support.fixture("orient\(tag).jpg")
    let info = try JPEGCoder().info(of: data)
    #expect(info.format == .jpeg)
    #expect(info.size == PixelSize(width: 40, height: 24))
    #expect(info.orientation.rawValue == tag)
    #expect(info.byteCount == data.count)
    #expect(info.frameCount == 1)
    #expect(info.frameDurations == [.zero])
  }

  @Test func infoWithoutEXIFIsUp() throws {
    let info = try JPEGCoder().info(of: try Support.fixture("s422.jpg"))
    #expect(info.orientation == .up)
    #expect(info.size == PixelSize(width: 45, height: 29))
  }

  /// The target size is matched as displayed: a stored 24x40 image shown as
  /// 40x24 and fitted into 10x6 needs 6x10 stored, which 1/4 scaling gives.
  @Test func scalingAccountsForOrientation() throws {
    var options = DecodeOptions()
    options.targetSize = PixelSize(width: 10, height: 6)
    let image = try JPEGCoder().decode(try Support.fixture("orient6.jpg"), options: options)
    #expect(image.pixelSize == PixelSize(width: 10, height: 6))
  }
}
