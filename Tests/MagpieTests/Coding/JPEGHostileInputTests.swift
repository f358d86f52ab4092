import Foundation
import Testing

@testable import Magpie

/// Truncated, corrupt and lying files: a typed error or a flagged partial
/// image, never a crash, a hang or a huge allocation.
@Suite struct JPEGHostileInputTests {
  typealias Support = JPEGSupportForTests

  private static func decodeError(_ data: Data, options: DecodeOptions = DecodeOptions()) -> MagpieError? {
    do {
      _ = try JPEGCoder().decode(data, options: options)
      return nil
    } catch {
      return error
    }
  }

  private static var strict: DecodeOptions {
    var options = DecodeOptions()
    options.allowsPartialImage = false
    return options
  }

  /// photo96.jpg cut at 60% ends inside its third 16-row MCU row: the
  /// rows above are intact (but for the last, whose smooth chroma
  /// upsampling reads the next MCU row), and libjpeg fills the rest.
  @Test func truncatedBaselineGivesPartialImage() throws {
    let full = try Support.fixture("photo96.jpg")
    let cut = full.prefix(full.count * 6 / 10)
    let image = try JPEGCoder().decode(cut, options: DecodeOptions())
    #expect(image.isPartial)
    #expect(image.pixelSize == PixelSize(width: 96, height: 96))
    #expect(Support.allOpaque(image.pixels))
    let reference = [UInt8](try Support.fixture("photo96.rgb"))
    let decoded = Support.rgb(image.pixels)
    let top = 30 * 96 * 3
    #expect(Support.maxDifference(Array(decoded[..<top]), Array(reference[..<top])) <= 1)
    #expect(Support.maxDifference(Array(decoded[top...]), Array(reference[top...])) > 20)

    let error = Self.decodeError(cut, options: Self.strict)
    #expect(error?.code == .truncatedData)
    #expect(error?.reason.contains("Premature end of JPEG file") == true)
  }

  /// A progressive file cut after its first scans shows the whole image,
  /// blurred.
  @Test func truncatedProgressiveGivesPartialImage() throws {
    let full = try Support.fixture("photo96_progressive.jpg")
    let cut = full.prefix(full.count / 2)
    let image = try JPEGCoder().decode(cut, options: DecodeOptions())
    #expect(image.isPartial)
    #expect(image.pixelSize == PixelSize(width: 96, height: 96))
    let reference = [UInt8](try Support.fixture("photo96_progressive.rgb"))
    let psnr = Support.psnr(Support.rgb(image.pixels), reference)
    #expect(psnr > 15 && psnr < 60, "PSNR \(psnr)")
    #expect(Self.decodeError(cut, options: Self.strict)?.code == .truncatedData)
  }

  /// Files that lack only their EOI marker are complete (common on the web);
  /// a progressive one cannot be told from one missing later scans.
  @Test func missingEOIOnly() throws {
    let baseline = try Support.fixture("photo96.jpg").dropLast(2)
    let image = try JPEGCoder().decode(Data(baseline), options: Self.strict)
    #expect(!image.isPartial)
    let reference = [UInt8](try Support.fixture("photo96.rgb"))
    #expect(Support.maxDifference(Support.rgb(image.pixels), reference) <= 1)

    let progressive = try Support.fixture("photo96_progressive.jpg").dropLast(2)
    let partial = try JPEGCoder().decode(Data(progressive), options: DecodeOptions())
    #expect(partial.isPartial)
    let progressiveReference = [UInt8](try Support.fixture("photo96_progressive.rgb"))
    #expect(Support.maxDifference(Support.rgb(partial.pixels), progressiveReference) <= 1)
  }

  @Test func truncatedHeaderIsAnErrorEvenWhenPartialIsAllowed() throws {
    let data = try Support.fixture("s420.jpg")
    for length in [0, 1, 2, 3, 20, 100, 300] {
      let error = Self.decodeError(data.prefix(length))
      #expect(error?.code == .truncatedData, "\(length) bytes: \(String(describing: error))")
      #expect(throws: MagpieError.self) { try JPEGCoder().info(of: data.prefix(length)) }
    }
  }

  @Test func corruptDataReportsLibjpegsReason() throws {
    let huffman = Self.decodeError(try Support.fixture("corrupt_huffman.jpg"))
    #expect(huffman?.code == .corruptData)
    #expect(huffman?.reason.contains("Bogus Huffman table definition") == true, "\(String(describing: huffman))")
    let frame = Self.decodeError(try Support.fixture("corrupt_frame.jpg"))
    #expect(frame?.code == .corruptData, "\(String(describing: frame))")
    var garbage = Data([0xFF, 0xD8, 0xFF])
    garbage.append(contentsOf: (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    #expect(Self.decodeError(garbage)?.code == .corruptData)
  }

  /// Valid JPEG variants libjpeg-turbo 2.1 does not decode (8-bit build):
  /// lossless (SOF3) and 12-bit samples.
  @Test func unsupportedVariantsSaySo() throws {
    let original = [UInt8](try Support.fixture("s420.jpg"))
    var i = 2
    while i + 4 <= original.count, original[i + 1] != 0xC0 {
      i += 2 + (Int(original[i + 2]) << 8 | Int(original[i + 3]))
    }
    try #require(i + 4 <= original.count)
    var lossless = original
    lossless[i + 1] = 0xC3
    let losslessError = Self.decodeError(Data(lossless))
    #expect(losslessError?.code == .unsupportedFormat, "\(String(describing: losslessError))")
    var twelveBit = original
    twelveBit[i + 4] = 12
    let precisionError = Self.decodeError(Data(twelveBit))
    #expect(precisionError?.code == .unsupportedFormat, "\(String(describing: precisionError))")
    #expect(precisionError?.reason.contains("precision 12") == true)
  }

  /// A frame header declaring 60000x60000 on a 1.3 kB file is refused by
  /// size, before any pixel memory is allocated.
  @Test func lyingSizeIsTooLarge() throws {
    let data = try Support.fixture("lying_size.jpg")
    #expect(data.count < 2000)
    let error = Self.decodeError(data)
    #expect(error?.code == .imageTooLarge)
    #expect(error?.reason.contains("60000x60000") == true, "\(String(describing: error))")
    #expect(try JPEGCoder().info(of: data).size == PixelSize(width: 60000, height: 60000))
  }

  /// A frame header that claims ten times the rows the scan holds: the scan
  /// stops at EOI with the image unfilled, as in a cut-off file.
  @Test func overstatedHeightIsPartial() throws {
    var bytes = [UInt8](try Support.fixture("s420.jpg"))
    var i = 2
    while i + 4 <= bytes.count, bytes[i + 1] != 0xC0 {
      i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
    }
    try #require(i + 9 <= bytes.count && bytes[i + 5] == 0 && bytes[i + 6] == 29)
    bytes[i + 5] = 0x01
    bytes[i + 6] = 0x22  // 290 rows
    let image = try JPEGCoder().decode(Data(bytes), options: DecodeOptions())
    #expect(image.pixelSize == PixelSize(width: 45, height: 290))
    #expect(image.isPartial)
    let reference = [UInt8](try Support.fixture("s420.rgb"))
    let top = 14 * 45 * 3
    #expect(Support.maxDifference(Array(Support.rgb(image.pixels)[..<top]), Array(reference[..<top])) <= 1)
    #expect(Self.decodeError(Data(bytes), options: Self.strict)?.code == .truncatedData)
  }

  /// At 1/8 scale the lying progressive file would pass the pixel limit
  /// (7500x7500), but its whole-image coefficient buffers (over 10 GB) break
  /// the memory cap, which is checked before libjpeg allocates them.
  @Test func lyingProgressiveSizeHitsTheMemoryCap() throws {
    var options = DecodeOptions()
    options.targetSize = PixelSize(width: 256, height: 256)
    let error = Self.decodeError(try Support.fixture("lying_size_progressive.jpg"), options: options)
    #expect(error?.code == .imageTooLarge, "\(String(describing: error))")
    #expect(error?.reason.contains("60000x60000") == true, "\(String(describing: error))")
    // A small cap stops even an honest progressive file.
    var tight = DecodeOptions()
    tight.maxTotalByteCount = 1000
    #expect(Self.decodeError(try Support.fixture("photo96_progressive.jpg"), options: tight)?.code == .imageTooLarge)
  }

  /// Truncations at every offset and seeded byte flips: every result is an
  /// image or a MagpieError.
  @Test(arguments: ["s420.jpg", "progressive.jpg", "restart_rows.jpg", "cmyk_adobe.jpg", "orient6.jpg"])
  func fuzz(name: String) throws {
    let original = [UInt8](try Support.fixture(name))
    var options = DecodeOptions()
    // Bounds the cost when a flip makes the image larger.
    options.maxPixelCount = 1_000_000
    var decoded = 0
    func attempt(_ bytes: [UInt8]) {
      let data = Data(bytes)
      do {
        let image = try JPEGCoder().decode(data, options: options)
        #expect(image.pixelSize.width > 0 && image.pixelSize.height > 0)
        #expect(image.pixels.byteCount == image.pixelSize.pixelCount * 4)
        decoded += 1
      } catch {
        #expect(!error.reason.isEmpty)
      }
      _ = try? JPEGCoder().info(of: data)
    }
    for length in 0..<original.count { attempt(Array(original[..<length])) }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    for _ in 0..<400 {
      var bytes = original
      for _ in 0..<(1 + next() % 3) { bytes[next() % bytes.count] ^= UInt8(1 + next() % 255) }
      attempt(bytes)
    }
    // Partial images come back for most truncations past the header.
    #expect(decoded > original.count / 3)
  }
}
