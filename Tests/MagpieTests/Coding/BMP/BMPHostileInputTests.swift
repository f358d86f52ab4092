import Foundation
import Testing

@testable import Magpie

/// The damaged and hostile files of the BMP suite (Fixtures/bmp/corrupt.json)
/// fail with the error they must, or decode partially as they must; none
/// takes pixel memory for a size it only declares.
@Suite struct BMPHostileInputTests {
  struct Expectation: Decodable {
    var expect: String
    var rows: Int?
    var same_as: String?
  }

  static let cases: [String: Expectation] = {
    guard let data = try? TestPaths.fixture("bmp/corrupt.json") else { return [:] }
    return (try? JSONDecoder().decode([String: Expectation].self, from: data)) ?? [:]
  }()

  static let codes: [String: MagpieError.Code] = [
    "truncatedData": .truncatedData, "corruptData": .corruptData, "imageTooLarge": .imageTooLarge,
    "unsupportedFormat": .unsupportedFormat,
  ]

  @Test(arguments: cases.keys.sorted()) func failsOrDecodesAsExpected(name: String) throws {
    let expectation = try #require(Self.cases[name])
    let data = try ReferenceFixture.data("bmp", name)
    switch expectation.expect {
    case "partial":
      let image = try BMPCoder().decode(data, options: DecodeOptions())
      #expect(image.isPartial)
      var strict = DecodeOptions()
      strict.allowsPartialImage = false
      #expect(throws: MagpieError.self) { try BMPCoder().decode(data, options: strict) }
    case "clipped":
      #expect(try !BMPCoder().decode(data, options: DecodeOptions()).isPartial)
    case "decodes":
      let image = try BMPCoder().decode(data, options: DecodeOptions())
      #expect(image.pixels == (try ReferenceFixture.frame("bmp", try #require(expectation.same_as))))
    default:
      let code = try #require(Self.codes[expectation.expect], "unknown expectation \(expectation.expect)")
      let error = #expect(throws: MagpieError.self) { try BMPCoder().decode(data, options: DecodeOptions()) }
      #expect(error?.code == code, "\(name): \(String(describing: error))")
    }
  }

  @Test func aTruncatedImageKeepsItsWholeRowsAndLeavesTheRestTransparent() throws {
    let image = try BMPCoder().decode(ReferenceFixture.data("bmp", "truncated-pixels.bmp"), options: DecodeOptions())
    let reference = try ReferenceFixture.frame("bmp", "info-24.bmp")
    // Bottom-up: the file's first three rows are the image's last three.
    for y in 0..<7 {
      for x in 0..<13 {
        #expect(image.pixels[x, y] == (y >= 4 ? reference[x, y] : SIMD4<UInt8>(0, 0, 0, 0)), "(\(x), \(y))")
      }
    }
    #expect(!image.pixels.isOpaque)
  }

  /// The coordinates of every pixel a run-length file filled.
  private func filled(_ name: String) throws -> [SIMD2<Int>] {
    let image = try BMPCoder().decode(ReferenceFixture.data("bmp", name), options: DecodeOptions())
    return (0..<7).flatMap { y in (0..<13).map { x in SIMD2(x, y) } }.filter { image.pixels[$0.x, $0.y][3] != 0 }
  }

  @Test func runLengthCodesPastTheImageAreClipped() throws {
    // The run of 200 fills the bottom row's 13 pixels and no more; the next
    // row has the three of the run after the end of line.
    let overrun = try filled("rle8-overrun.bmp")
    #expect(overrun == (0..<3).map { SIMD2($0, 5) } + (0..<13).map { SIMD2($0, 6) })
    // A delta out of the image ends it: the run after it writes nothing.
    #expect(try filled("rle8-delta-out.bmp") == (0..<13).map { SIMD2($0, 6) })
  }

  @Test func theDeclaredSizeIsRefusedBeforeAnyPixelMemory() throws {
    // 100000x100000 declared in a 54-byte file: the pixel limit refuses it
    // from the header, and the message names the size.
    let data = try ReferenceFixture.data("bmp", "huge-100000x100000.bmp")
    let error = #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(data) }
    #expect(error?.code == .imageTooLarge)
    #expect(error?.reason.contains("100000x100000") == true, "\(String(describing: error))")
    // Its info still reads, from the header alone.
    #expect(try CoderRegistry.shared.info(of: data).size == PixelSize(width: 100000, height: 100000))
  }
}
