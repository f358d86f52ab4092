import Foundation
import Testing

@testable import Magpie

@Suite struct ImageFormatSniffingTests {
  private func bytes(_ list: [UInt8], padTo count: Int = 32) -> Data {
    Data(list + [UInt8](repeating: 0, count: max(0, count - list.count)))
  }

  private func pngChunk(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
    let length = UInt32(payload.count)
    return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
      + Array(type.utf8) + payload + [0, 0, 0, 0]
  }

  private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  @Test func recognisesMagicNumbers() {
    #expect(ImageFormat.sniff(bytes([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
    #expect(ImageFormat.sniff(bytes(Array("GIF89a".utf8))) == .gif)
    #expect(ImageFormat.sniff(bytes(Array("GIF87a".utf8))) == .gif)
    #expect(ImageFormat.sniff(bytes([0x49, 0x49, 0x2A, 0x00])) == .tiff)
    #expect(ImageFormat.sniff(bytes([0x4D, 0x4D, 0x00, 0x2A])) == .tiff)
    #expect(ImageFormat.sniff(bytes([0x00, 0x00, 0x01, 0x00, 0x01, 0x00])) == .ico)
    var bmp: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 12)
    bmp += [40, 0, 0, 0]
    #expect(ImageFormat.sniff(bytes(bmp)) == .bmp)
  }

  @Test func pngIsAPNGOnlyWhenAnimationControlPrecedesImageData() {
    let still = pngSignature + pngChunk("IHDR", [UInt8](repeating: 0, count: 13)) + pngChunk("IDAT")
    #expect(ImageFormat.sniff(Data(still)) == .png)
    let animated =
      pngSignature + pngChunk("IHDR", [UInt8](repeating: 0, count: 13)) + pngChunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
      + pngChunk("IDAT")
    #expect(ImageFormat.sniffDetails(Data(animated)) == FormatDetails(format: .apng, isAnimated: true))
    let late =
      pngSignature + pngChunk("IHDR", [UInt8](repeating: 0, count: 13)) + pngChunk("IDAT")
      + pngChunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
    #expect(ImageFormat.sniff(Data(late)) == .png)
  }

  @Test func webPVariants() {
    func webp(_ chunk: String, flags: UInt8 = 0, then next: String? = nil) -> Data {
      var b: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8)
      if chunk == "VP8X" {
        b += [10, 0, 0, 0, flags] + [UInt8](repeating: 0, count: 9)
        if let next { b += Array(next.utf8) + [0, 0, 0, 0] }
      } else {
        b += [0, 0, 0, 0]
      }
      return Data(b)
    }
    #expect(ImageFormat.sniffDetails(webp("VP8 ")) == FormatDetails(format: .webp))
    #expect(ImageFormat.sniffDetails(webp("VP8L")) == FormatDetails(format: .webp, isLossless: true))
    #expect(ImageFormat.sniffDetails(webp("VP8X", flags: 0x02)) == FormatDetails(format: .webp, isAnimated: true))
    #expect(ImageFormat.sniffDetails(webp("VP8X", flags: 0x10, then: "VP8L")).isLossless)
  }

  @Test func isoMediaBrands() {
    func ftyp(_ major: String, _ compatible: [String]) -> Data {
      let size = 16 + 4 * compatible.count
      let brands = compatible.flatMap { Array($0.utf8) }
      return Data([0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0] + brands)
    }
    #expect(ImageFormat.sniff(ftyp("avif", ["mif1", "avif"])) == .avif)
    #expect(ImageFormat.sniff(ftyp("mif1", ["mif1", "avif"])) == .avif)
    #expect(ImageFormat.sniff(ftyp("heic", ["mif1", "heic"])) == .heic)
    // Videos, whose frames make posters: MP4 brands and QuickTime's.
    #expect(ImageFormat.sniff(ftyp("isom", ["isom", "mp42"])) == .mp4)
    #expect(ImageFormat.sniff(ftyp("qt  ", ["qt  "])) == .mov)
    #expect(ImageFormat.sniff(ftyp("M4A ", ["M4A ", "mp42"])).isVideo)
    #expect(ImageFormat.sniff(ftyp("crx ", ["crx "])) == .unknown)
    #expect(ImageFormat.sniff(Data([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86])) == .webm)
  }

  @Test func jpegXLCodestreamAndContainer() throws {
    #expect(ImageFormat.sniff(Data([0xFF, 0x0A, 0xFA, 0x1F])) == .jxl)
    let container =
      [0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A] + [0, 0, 0, 0x14] + Array("ftypjxl ".utf8)
    #expect(ImageFormat.sniff(Data(container)) == .jxl)
    // A signature box cut short is not JPEG XL yet; a JPEG stays a JPEG.
    #expect(ImageFormat.sniff(Data(container.prefix(11))) == .unknown)
    #expect(ImageFormat.sniff(Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
    #expect(ImageFormat.jxl.mimeType == "image/jxl")
    #expect(ImageFormat.jxl.fileExtension == "jxl")
    // What cjxl writes: a bare codestream for these, sniffed from the bytes.
    #expect(ImageFormat.sniff(try TestPaths.fixture("jxl/lossless.jxl")) == .jxl)
  }

  @Test func svgAfterDeclarationsAndComments() {
    let svg =
      "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
    #expect(ImageFormat.sniff(Data(svg.utf8)) == .svg)
    #expect(ImageFormat.sniff(Data("<html><body>404</body></html>".utf8)) == .unknown)
    #expect(ImageFormat.sniff(Data("<?xml version=\"1.0\"?><rss/>".utf8)) == .unknown)
  }

  @Test func shortAndEmptyDataAreUnknown() {
    #expect(ImageFormat.sniff(Data()) == .unknown)
    #expect(ImageFormat.sniff(Data([0xFF, 0xD8])) == .unknown)
    #expect(ImageFormat.sniff(Data(pngSignature.prefix(7))) == .unknown)
    // A PNG chunk length that points far past the end ends the walk safely.
    let lying = pngSignature + [0xFF, 0xFF, 0xFF, 0xF0] + Array("IHDR".utf8)
    #expect(ImageFormat.sniff(Data(lying)) == .png)
  }
}
