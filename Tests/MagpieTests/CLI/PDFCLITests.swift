#if canImport(MagpiePDF)
  import Foundation
  import Testing

  @testable import Magpie

  /// `magpie decode` draws a PDF's first page at 72 dpi; `magpie info`
  /// lists its pages; `magpie convert` draws at the first resize's size.
  @Suite struct PDFCLITests {
    private let pdf = TestPaths.fixtures.appendingPathComponent("pdf/pages.pdf")

    @Test func decodeDrawsTheFirstPageAndInfoListsThePages() async throws {
      let dir = try TemporaryDirectory()
      let result = try await CLIRunner.run(["decode", pdf.path, "--out", dir.path("out")])
      #expect(result.status == 0, "\(result.stderr)")
      let json =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/pages.pdf.json")))) as? [String: Any]
      #expect(json?["width"] as? Int == 200)
      #expect(json?["frames"] as? Int == 1)
      let info = try await CLIRunner.run(["info", pdf.path])
      let fields = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
      #expect((fields?["pages"] as? [[String: Any]])?.map { $0["height"] as? Int } == [100, 400, 81])
    }

    @Test func convertDrawsAtTheResize() async throws {
      let dir = try TemporaryDirectory()
      let result = try await CLIRunner.run(["convert", pdf.path, dir.path("out.png"), "--process", "resize(1000x1000)"])
      #expect(result.status == 0, "\(result.stderr)")
      let written = try PNGCoder().decode(
        Data(contentsOf: URL(fileURLWithPath: dir.path("out.png"))), options: DecodeOptions())
      #expect(written.pixelSize == PixelSize(width: 1000, height: 500))
      let reference = try PDFReference.render("pdftocairo", pdf, page: 1, size: written.pixelSize)
      #expect(ReferenceFixture.maxDifference(written.pixels, reference) <= 1)
    }
  }
#endif
