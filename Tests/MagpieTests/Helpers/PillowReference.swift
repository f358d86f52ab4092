import Foundation

@testable import Magpie

/// Pixels made by Debian's Pillow (python3-pil) from pixels made here: the
/// independent reference of the processing tests that cannot be fixtures
/// (options combine too many ways to store every result).
enum PillowReference {
  /// Runs `program` with `src` bound to `pixels` opened as a Pillow RGBA
  /// image; the program assigns its result image to `out`, which comes
  /// back as straight RGBA. The pixels travel as PNG, losslessly.
  static func image(_ pixels: PixelBuffer, _ program: String) throws -> PixelBuffer {
    let folder = try TemporaryDirectory()
    let input = folder.path("in.png")
    let output = folder.path("out.png")
    try CoderRegistry.shared.encode(Image(pixels: pixels), as: .png).write(to: URL(fileURLWithPath: input))
    let script = """
      from PIL import ImageFilter, ImageOps
      src = Image.open(sys.argv[1]).convert('RGBA')
      \(program)
      out.convert('RGBA').save(sys.argv[2])
      """
    try ReferenceTool.pillow("exec(sys.argv[3])", [input, output, script])
    return try ReferenceTool.png(output)
  }
}
