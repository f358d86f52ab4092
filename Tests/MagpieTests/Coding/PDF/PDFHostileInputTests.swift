#if canImport(MagpiePDF)
  import Foundation
  import Magpie
  import MagpiePDF
  import Testing

  /// Encrypted, damaged and hostile PDFs fail with a typed error that says
  /// why, before any pixel memory is taken.
  @Suite struct PDFHostileInputTests {
    private func data(_ name: String) throws -> Data {
      try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("pdf/\(name)"))
    }

    @Test func anEncryptedPDFIsRefusedSayingSo() throws {
      let error = #expect(throws: MagpieError.self) {
        try PDFCoder().decode(data("encrypted.pdf"), options: DecodeOptions())
      }
      #expect(error?.code == .unsupportedFormat)
      #expect(error?.reason.contains("encrypted") == true)
      // Encrypted only to restrict printing: it opens, as in every viewer.
      #expect(try PDFCoder().decode(data("owner-only.pdf"), options: DecodeOptions()).pixelSize.width == 200)
    }

    @Test func aPageOfAMillionPointsIsRefusedFromItsSize() throws {
      let error = #expect(throws: MagpieError.self) {
        try PDFCoder().decode(data("huge-page.pdf"), options: DecodeOptions())
      }
      #expect(error?.code == .imageTooLarge, "\(String(describing: error))")
      // At a target size it draws.
      var options = DecodeOptions()
      options.targetSize = PixelSize(width: 64, height: 64)
      #expect(
        try PDFCoder().decode(data("huge-page.pdf"), options: options).pixelSize == PixelSize(width: 64, height: 64))
    }

    @Test func aDamagedPDFIsCorruptAndAMissingPageIsAnArgument() throws {
      let damaged = #expect(throws: MagpieError.self) {
        try PDFCoder().decode(data("damaged.pdf"), options: DecodeOptions())
      }
      #expect(damaged?.code == .corruptData)
      let missing = #expect(throws: MagpieError.self) {
        try PDFCoder().decodeSubimage(at: 3, in: data("pages.pdf"), options: DecodeOptions())
      }
      #expect(missing?.code == .invalidArgument)
    }
  }
#endif
