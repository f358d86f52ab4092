import Foundation
import Testing

@testable import Magpie

/// What Magpie writes into a WebP, read back by libwebp's own `webpmux`
/// (Debian's `webp` package, which `make test` installs: without it the
/// test fails).
@Suite struct WebPMuxToolTests {
  static let tool = "/usr/bin/webpmux"

  @Test func webpmuxReadsTheProfileEXIFAndXMPMagpieWrote() throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: Self.tool),
      "\(Self.tool) is not installed (make test-deps installs Debian's webp)")
    var image = Image(pixels: PixelBuffer(width: 8, height: 8, straightRGBA: [UInt8](repeating: 200, count: 256)))
    let icc = Data((0..<3000).map { UInt8($0 % 251) })
    let exif = Data([0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0])
    image.colorProfile = ColorProfile(iccData: icc)
    image.metadata = ImageMetadata(exif: exif, xmp: MetadataRoundTripTests.xmp, isOrientationApplied: false)
    var options = EncodeOptions()
    options.keepsMetadata = true
    let encoded = try CoderRegistry.shared.encode(image, as: .webp, options: options)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-webpmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.webp")
    try encoded.write(to: input)
    for (chunk, expected) in [("icc", icc), ("exif", exif), ("xmp", MetadataRoundTripTests.xmp)] {
      let output = folder.appendingPathComponent(chunk)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Self.tool)
      process.arguments = ["-get", chunk, input.path, "-o", output.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "webpmux -get \(chunk) failed")
      #expect((try? Data(contentsOf: output)) == expected, "\(chunk) differs")
    }
  }
}
