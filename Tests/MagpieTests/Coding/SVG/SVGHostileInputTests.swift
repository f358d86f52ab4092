#if canImport(MagpieSVG)
  import Foundation
  import Magpie
  import MagpieSVG
  import Testing

  /// An SVG reads nothing but itself, and hostile documents fail with a
  /// typed error from librsvg's limits or Magpie's, quickly.
  @Suite struct SVGHostileInputTests {
    private func svg(_ body: String, size: String = "width=\"40\" height=\"40\"") -> Data {
      Data(
        ("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \(size)>"
          + body + "</svg>").utf8)
    }

    @Test func aBillionLaughsUseChainIsRefused() throws {
      // 10 uses of 10 uses ... 30 deep: 10^30 rectangles.
      var body = "<defs><rect id=\"a0\" width=\"1\" height=\"1\"/>"
      for level in 1...30 {
        body += "<g id=\"a\(level)\">" + String(repeating: "<use xlink:href=\"#a\(level - 1)\"/>", count: 10) + "</g>"
      }
      body += "</defs><use xlink:href=\"#a30\"/>"
      let error = #expect(throws: MagpieError.self) { try SVGCoder().decode(svg(body), options: DecodeOptions()) }
      #expect(error?.code == .limitExceeded, "\(String(describing: error))")
    }

    @Test func entityExpansionIsRefused() throws {
      var doctype = "<!DOCTYPE svg [<!ENTITY l0 \"lol\">"
      for level in 1...12 {
        doctype += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
      }
      doctype += "]>"
      let data = Data(
        (doctype + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><text>&l12;</text></svg>").utf8
      )
      #expect(throws: MagpieError.self) { try SVGCoder().decode(data, options: DecodeOptions()) }
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeRendering() throws {
      let data = svg("<rect width=\"1\" height=\"1\"/>", size: "width=\"1000000\" height=\"1000000\"")
      let error = #expect(throws: MagpieError.self) { try SVGCoder().decode(data, options: DecodeOptions()) }
      #expect(error?.code == .imageTooLarge)
      var small = DecodeOptions()
      small.maxPixelCount = 1000
      let limited = #expect(throws: MagpieError.self) {
        try SVGCoder().decode(svg("<rect width=\"1\" height=\"1\"/>"), options: small)
      }
      #expect(limited?.code == .imageTooLarge)
    }

    @Test func theDocumentLoadsNoFileAndNoURL() throws {
      let origin = try FaultOrigin()
      defer { origin.stop() }
      let red = try CoderRegistry.shared.encode(
        Image(
          pixels: PixelBuffer(
            width: 4, height: 4, straightRGBA: Array(repeating: [255, 0, 0, 255], count: 16).flatMap { $0 })),
        as: .png)
      origin.route("/red.png", .ok(red))
      let dir = try TemporaryDirectory()
      try red.write(to: URL(fileURLWithPath: dir.path("red.png")))
      let body =
        "<image x=\"0\" y=\"0\" width=\"20\" height=\"40\" xlink:href=\"file://\(dir.path("red.png"))\"/>"
        + "<image x=\"20\" y=\"0\" width=\"20\" height=\"40\" xlink:href=\"\(origin.url("/red.png").absoluteString)\"/>"
        + "<image x=\"0\" y=\"0\" width=\"40\" height=\"40\" xlink:href=\"red.png\"/>"
      let image = try SVGCoder().decode(svg(body), options: DecodeOptions())
      #expect(image.pixels.bytes.allSatisfy { $0 == 0 }, "an image outside the document was drawn")
      #expect(origin.requestCount("/red.png") == 0)
      // A data: URL, inside the document, is drawn.
      let inline =
        "<image width=\"40\" height=\"40\" xlink:href=\"data:image/png;base64,\(red.base64EncodedString())\"/>"
      #expect(try SVGCoder().decode(svg(inline), options: DecodeOptions()).pixels[20, 20] == SIMD4(255, 0, 0, 255))
    }

    @Test func brokenXMLIsCorrupt() throws {
      let error = #expect(throws: MagpieError.self) {
        try SVGCoder().decode(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8), options: DecodeOptions())
      }
      #expect(error?.code == .corruptData)
    }
  }
#endif
