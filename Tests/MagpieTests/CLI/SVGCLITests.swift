#if canImport(MagpieSVG)
  import Foundation
  import Testing

  @testable import Magpie

  /// `magpie convert` draws an SVG at the size its first resize asks for;
  /// `magpie decode` at its intrinsic size.
  @Suite struct SVGCLITests {
    private let svg = TestPaths.fixtures.appendingPathComponent("svg/shapes.svg")

    @Test func convertRendersAtTheResizeNotAtTheIntrinsicSize() async throws {
      let dir = try TemporaryDirectory()
      let result = try await CLIRunner.run(["convert", svg.path, dir.path("out.png"), "--process", "resize(512x512)"])
      #expect(result.status == 0, "\(result.stderr)")
      let written = try PNGCoder().decode(
        Data(contentsOf: URL(fileURLWithPath: dir.path("out.png"))), options: DecodeOptions())
      // 120x80 fitted into 512x512.
      #expect(written.pixelSize == PixelSize(width: 512, height: 341))
      // A render at 512, not the 120-pixel render enlarged (which blurs
      // every edge by far more than one level).
      let reference = try SVGReference.render(svg, width: 512, height: 341)
      #expect(SVGReference.maxPremultipliedDifference(written.pixels, reference) <= 1)
    }

    @Test func decodeWritesTheIntrinsicSize() async throws {
      let dir = try TemporaryDirectory()
      let result = try await CLIRunner.run(["decode", svg.path, "--out", dir.path("out")])
      #expect(result.status == 0, "\(result.stderr)")
      let json =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/shapes.svg.json")))) as? [String: Any]
      #expect(json?["width"] as? Int == 120)
      #expect(json?["height"] as? Int == 80)
      let rgba = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/shapes.svg.rgba")))
      #expect(rgba.count == 120 * 80 * 4)
    }
  }
#endif
