import Foundation
import Magpie

extension FuzzHarness {
  /// Format sniffing: the container headers `ImageFormat.sniffDetails`
  /// walks (PNG chunks to `acTL`, WebP's RIFF chunks, ISO-BMFF `ftyp`
  /// brands, SVG text), and which coder the registry picks.
  static let sniffing = FuzzHarness(
    name: "sniff",
    seedExtensions: ["jpg", "png", "gif", "webp", "avif", "avifs", "heic", "jxl", "svg", "bmp", "ico", "tif"],
    maxLength: 4 << 10
  ) { data in
    let details = ImageFormat.sniffDetails(data)
    _ = (details.isAnimated, ImageFormat.sniff(data) == details.format)
    _ = CoderRegistry.shared.decoder(for: data)
  }
}
