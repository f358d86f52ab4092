import Foundation
import Testing

@testable import Magpie

/// The independent tools the format tests compare with (`rsvg-convert`,
/// `pdftocairo`, `ffmpeg`, Debian's Python with Pillow), which `make test`
/// installs: a tool that fails fails the test, it never skips it.
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
}
