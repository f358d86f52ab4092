import Foundation

@testable import Magpie

/// Fixtures under Fixtures/color (Scripts/fixtures/make_color_fixtures.py)
/// and their references: Pillow's ImageCms (lcms2) conversion to sRGB.
enum ColorTestSupport {
  /// The fixtures' size.
  static let size = PixelSize(width: 96, height: 64)
  /// How far a decode may be from the reference, per channel.
  static let tolerance = 2

  /// A fixture's bytes.
  static func fixture(_ name: String) throws -> Data {
    try TestPaths.fixture("color/" + name)
  }

  /// The reference RGB8 rows `name`.rgb.
  static func reference(_ name: String) throws -> [UInt8] {
    [UInt8](try fixture(name + ".rgb"))
  }

  /// A profile fixture (`p3.icc`, `cmyk.icc`).
  static func profile(_ name: String) throws -> ColorProfile {
    ColorProfile(iccData: try fixture(name + ".icc"))
  }

  /// `pixels` as straight RGB8 rows.
  static func rgb(_ pixels: PixelBuffer) -> [UInt8] { JPEGSupportForTests.rgb(pixels) }

  /// The largest per-channel difference between `a` and `b`.
  static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return Int.max }
    var worst = 0
    for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
  }

  /// Options that keep the stored colours.
  static var preserving: DecodeOptions {
    var options = DecodeOptions()
    options.colorManagement = .preserve
    return options
  }
}
