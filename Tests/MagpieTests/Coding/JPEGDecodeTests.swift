import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// Pixel-exactness against Pillow's decode of the same file, for every
/// colour space, subsampling and coding the fixtures cover.
@Suite struct JPEGDecodeTests {
  typealias Support = JPEGSupportForTests

  /// Pillow links its own libjpeg-turbo; both use the accurate integer IDCT
  /// and fancy upsampling, so they agree (exactly, with Pillow 13 and
  /// libjpeg-turbo 2.1.5); 1 leaves room for rounding in other versions.
  static let pillowTolerance = 1

  @Test(arguments: [
    "s444", "s422", "s420", "s440", "s411", "gray", "rgb", "progressive", "restart_blocks", "restart_rows",
    "cmyk_adobe",
  ])
  func matchesPillow(name: String) throws {
    let data = try Support.fixture(name + ".jpg")
    let image = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: 45, height: 29))
    #expect(image.format == .jpeg)
    #expect(image.orientation == .up)
    #expect(!image.isPartial)
    #expect(image.frames.count == 1)
    #expect(image.pixels.isOpaque)
    #expect(Support.allOpaque(image.pixels))
    let reference = [UInt8](try Support.fixture(name + ".rgb"))
    let decoded = Support.rgb(image.pixels)
    #expect(Support.maxDifference(decoded, reference) <= Self.pillowTolerance, "\(name)")
  }

  @Test func fixturesAreWhatTheyClaim() throws {
    let expected: [String: [(UInt8, UInt8)]] = [
      "s444": [(1, 1), (1, 1), (1, 1)], "s422": [(2, 1), (1, 1), (1, 1)], "s420": [(2, 2), (1, 1), (1, 1)],
      "s440": [(1, 2), (1, 1), (1, 1)], "s411": [(4, 1), (1, 1), (1, 1)],
    ]
    for (name, factors) in expected {
      let header = try #require(Support.header(of: try Support.fixture(name + ".jpg")))
      #expect(header.color_space == MP_JPEG_COLOR_YCBCR)
      #expect(header.is_progressive == 0)
      let h = [header.h_samp.0, header.h_samp.1, header.h_samp.2]
      let v = [header.v_samp.0, header.v_samp.1, header.v_samp.2]
      #expect(h == factors.map(\.0) && v == factors.map(\.1), "\(name)")
    }
    let gray = try #require(Support.header(of: try Support.fixture("gray.jpg")))
    #expect(gray.color_space == MP_JPEG_COLOR_GRAY && gray.components == 1)
    let rgb = try #require(Support.header(of: try Support.fixture("rgb.jpg")))
    #expect(rgb.color_space == MP_JPEG_COLOR_RGB)
    let progressive = try Support.fixture("progressive.jpg")
    #expect(Support.header(of: progressive)?.is_progressive == 1)
    #expect(Support.contains(marker: 0xC2, in: progressive))
    for name in ["restart_blocks", "restart_rows"] {
      let data = try Support.fixture(name + ".jpg")
      #expect(Support.contains(marker: 0xDD, in: data), "\(name) has no DRI")
      #expect(Support.contains(marker: 0xD0, in: data), "\(name) has no RST0")
    }
    let cmyk = try #require(Support.header(of: try Support.fixture("cmyk_adobe.jpg")))
    #expect(cmyk.color_space == MP_JPEG_COLOR_CMYK)
    #expect(cmyk.has_adobe_marker == 1 && cmyk.adobe_transform == 0)
  }

  /// Browsers read every 4-component JPEG as Adobe-inverted CMYK, marker
  /// or not; so does the coder.
  @Test func cmykWithoutAdobeMarkerDecodesAsInverted() throws {
    var bytes = [UInt8](try Support.fixture("cmyk_adobe.jpg"))
    var i = 2
    while i + 4 <= bytes.count, bytes[i + 1] != 0xEE {
      i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
    }
    try #require(i + 4 <= bytes.count, "no APP14 marker")
    bytes.removeSubrange(i..<(i + 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))))
    let data = Data(bytes)
    let header = try #require(Support.header(of: data))
    #expect(header.has_adobe_marker == 0 && header.color_space == MP_JPEG_COLOR_CMYK)
    let image = try JPEGCoder().decode(data, options: DecodeOptions())
    let reference = [UInt8](try Support.fixture("cmyk_adobe.rgb"))
    #expect(Support.maxDifference(Support.rgb(image.pixels), reference) <= Self.pillowTolerance)
  }

  /// YCCK (Adobe transform 2), which Pillow cannot write: libjpeg encodes
  /// known CMYK values; the expected RGB comes from those values by the
  /// naive formula R = C * K / 255 (values as stored, 255 = no ink).
  @Test func ycckConvertsNaivelyFromTheCMYKSource() throws {
    let width = 32
    let height = 16
    var cmyk = [UInt8]()
    var expected = [UInt8]()
    for y in 0..<height {
      for x in 0..<width {
        // Flat 8x8 cells, so quality 100 keeps the values nearly exact.
        let cell = (x / 8) + 4 * (y / 8)
        let c = UInt8(255 - cell * 13)
        let m = UInt8(40 + cell * 11)
        let yellow = UInt8((cell * 37) % 256)
        let k = UInt8(255 - cell * 9)
        cmyk += [c, m, yellow, k]
        for v in [c, m, yellow] { expected.append(UInt8((Double(v) * Double(k) / 255).rounded())) }
      }
    }
    let data = try Support.encode(
      pixels: cmyk, width: width, height: height, input: MP_JPEG_INPUT_CMYK, colorSpace: MP_JPEG_COLOR_YCCK,
      sampling: ((1, 1, 1, 1), (1, 1, 1, 1)))
    let header = try #require(Support.header(of: data))
    #expect(header.color_space == MP_JPEG_COLOR_YCCK)
    #expect(header.has_adobe_marker == 1 && header.adobe_transform == 2)
    let image = try JPEGCoder().decode(data, options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: width, height: height))
    #expect(Support.allOpaque(image.pixels))
    #expect(Support.maxDifference(Support.rgb(image.pixels), expected) <= 2)
  }

  @Test func optionsAreHonoured() throws {
    let data = try Support.fixture("s420.jpg")
    var options = DecodeOptions()
    options.keepsOriginalData = true
    options.scale = 2
    let image = try JPEGCoder().decode(data, options: options)
    #expect(image.originalData == data)
    #expect(image.scale == 2)
    #expect(try JPEGCoder().decode(data, options: DecodeOptions()).originalData == nil)
  }

  @Test func registryRoutesJPEGHere() throws {
    let data = try Support.fixture("s444.jpg")
    #expect(JPEGCoder().canDecode(data, format: .jpeg))
    #expect(!JPEGCoder().canDecode(data, format: .png))
    #expect(CoderRegistry.shared.decoder(for: data) is JPEGCoder)
    let image = try CoderRegistry.shared.decode(data)
    #expect(image.pixelSize == PixelSize(width: 45, height: 29))
  }
}
