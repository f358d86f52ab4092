import Foundation
import Testing

@testable import Magpie

/// The independent tools the format tests compare with (`rsvg-convert`,
/// `pdftocairo`, `ffmpeg`, Debian's Python with Pillow, heif-convert,
/// djxl, jxlinfo), which `make test` installs: a missing tool, or one that
/// fails, fails the test, it never skips it.
enum ReferenceTool {
  /// Runs `/usr/bin/<tool>` with `arguments`, expecting it to succeed.
  static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " ")) failed")
  }

  /// The PNG a tool wrote at `path`, as straight RGBA.
  static func png(_ path: String) throws -> PixelBuffer {
    var options = DecodeOptions()
    options.colorManagement = .preserve
    return try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: path)), options: options).pixels
  }

  /// Runs a Python program with Debian's Pillow (python3-pil) on `arguments`.
  static func pillow(_ program: String, _ arguments: [String]) throws {
    try run("python3", ["-c", "import sys; from PIL import Image; " + program] + arguments)
  }

  /// Writes `data` to `inputName` in a fresh folder, runs `tool` with
  /// `arguments` (where `IN` and `OUT` stand for the input and for
  /// `outputName` in that folder), and returns what it printed and the
  /// output file's bytes (`nil` when there is no `outputName`).
  static func run(
    _ tool: String, _ arguments: [String], input data: Data, inputName: String, outputName: String? = nil
  ) throws -> (stdout: String, output: Data?) {
    let path = "/usr/bin/\(tool)"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw MagpieError(.unsupportedFormat, "\(path) is not installed (make test-deps installs it)")
    }
    let folder = try TemporaryDirectory()
    try data.write(to: URL(fileURLWithPath: folder.path(inputName)))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments.map {
      switch $0 {
      case "IN": folder.path(inputName)
      case "OUT": folder.path(outputName ?? "out")
      default: $0
      }
    }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let printed = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw MagpieError(.corruptData, "\(tool) rejected Magpie's \(inputName) (exit \(process.terminationStatus))")
    }
    let output = try outputName.map { try Data(contentsOf: URL(fileURLWithPath: folder.path($0))) }
    return (String(decoding: printed, as: UTF8.self), output)
  }

  /// `tool`'s decode of `data` to PNG (`IN OUT` as its arguments), read
  /// back with Magpie's PNG coder, its ICC profile kept as stored.
  static func decodeToPNG(_ tool: String, _ data: Data, inputName: String) throws -> Image {
    let png = try run(tool, ["IN", "OUT"], input: data, inputName: inputName, outputName: "out.png").output!
    var options = DecodeOptions()
    options.colorManagement = .preserve
    return try PNGCoder().decode(png, options: options)
  }

  /// PSNR in dB of `b` against `a` over the RGB channels with each colour
  /// weighted by its alpha (premultiplied), so colour under transparent
  /// pixels, which no lossy codec keeps, does not count.
  static func premultipliedPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count, "sizes differ")
    var sum = 0.0
    var n = 0.0
    for i in stride(from: 0, to: a.count, by: 4) {
      for c in 0..<3 {
        let d = Double(a[i + c]) * Double(a[i + 3]) / 255 - Double(b[i + c]) * Double(b[i + 3]) / 255
        sum += d * d
        n += 1
      }
    }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / n))
  }

  /// A photo fixture with a smooth alpha ramp laid over it (left edge
  /// transparent, right edge opaque): photo-like colour and alpha.
  static func photoWithAlpha(_ name: String) throws -> Image {
    let photo = try PNGCoder().decode(try TestPaths.fixture("photos/\(name)"), options: DecodeOptions())
    let size = photo.pixelSize
    var bytes = photo.pixels.straightRGBA()
    for y in 0..<size.height {
      for x in 0..<size.width { bytes[(y * size.width + x) * 4 + 3] = UInt8(x * 255 / max(1, size.width - 1)) }
    }
    return Image(pixels: PixelBuffer(width: size.width, height: size.height, straightRGBA: bytes), format: .png)
  }

  /// ``photoWithAlpha(_:)`` held premultiplied, as resampled pixels are:
  /// encoders must divide it back to straight alpha first.
  static func premultipliedPhoto(_ name: String) throws -> Image {
    let straight = try photoWithAlpha(name).pixels
    var bytes = straight.straightRGBA()
    bytes.withUnsafeMutableBytes { _ = PixelBuffer.premultiply($0) }
    let pixels = PixelBuffer(
      width: straight.width, height: straight.height, bytesPerRow: straight.width * 4, premultipliedRGBA: bytes)
    return Image(pixels: pixels, format: .png)
  }
}
