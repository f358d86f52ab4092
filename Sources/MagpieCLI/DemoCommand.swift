import Foundation
import Magpie

/// `magpie demo [DIR] [--out FILE] [--base-url URL --cache-dir DIR]`.
///
/// With `--base-url` (what `make demo` runs, against a local nginx serving
/// DIR): the gallery loaded three times through the full pipeline, see
/// ``GalleryDemo``. Without: every sample decoded from disk, thumbnailed,
/// and timed one by one.
enum DemoCommand {
  static let cell = 256
  static let margin = 8
  static let columns = 6

  static func run(_ words: [String]) async throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: ["--out", "--base-url", "--cache-dir"])
    guard arguments.positionals.count <= 1 else { throw .usage("demo", "expected at most one folder") }
    let folder = arguments.positionals.first ?? "samples"
    let output = arguments.value("--out") ?? "demo-out/contact-sheet.png"
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    } catch {
      throw .failure("read \(folder)", InputFile.describe(error))
    }
    guard !names.isEmpty else { throw .failure("demo", "no images in \(folder)") }
    if let base = arguments.value("--base-url") {
      guard let baseURL = URL(string: base), baseURL.scheme == "http" || baseURL.scheme == "https" else {
        throw .usage("--base-url", "expected an http(s) URL, got '\(base)'")
      }
      guard let cacheDirectory = arguments.value("--cache-dir") else {
        throw .usage("demo", "--base-url needs --cache-dir DIR for the passes to share")
      }
      try await GalleryDemo.run(names: names, baseURL: baseURL, cacheDirectory: cacheDirectory, output: output)
      return
    }

    let clock = ContinuousClock()
    var thumbnails: [PixelBuffer] = []
    var decodeTotal = Duration.zero
    var thumbTotal = Duration.zero
    var failed = 0
    print(row("image", "format", "size", "frames", "decode ms", "thumb ms"))
    for name in names {
      let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
      do {
        let data = try InputFile.readFile(path)
        let start = clock.now
        let image = try CoderRegistry.shared.decode(data)
        let decoded = clock.now
        let thumb = try BenchCommand.thumbnail(data)
        let done = clock.now
        decodeTotal += decoded - start
        thumbTotal += done - decoded
        thumbnails.append(thumb.pixels)
        print(
          row(
            name, image.format.rawValue, image.pixelSize.description, "\(image.frames.count)",
            format(decoded - start), format(done - decoded)))
      } catch let error as MagpieError {
        failed += 1
        print(row(name, "-", "-", "-", "failed: \(error)", ""))
      } catch {
        failed += 1
        print(row(name, "-", "-", "-", "failed: \(error)", ""))
      }
    }

    let sheet = contactSheet(thumbnails)
    try writeContactSheet(sheet, to: output)
    print(
      "\(thumbnails.count) images decoded in \(format(decodeTotal)) ms, thumbnailed in \(format(thumbTotal)) ms"
        + (failed > 0 ? ", \(failed) failed" : "") + "; contact sheet \(output) (\(sheet.size))")
    if failed > 0 { throw CLIError.failure("demo", "\(failed) images failed").silenced }
  }

  /// Writes `sheet` as a PNG at `output`, creating its folder.
  static func writeContactSheet(_ sheet: PixelBuffer, to output: String) throws(CLIError) {
    do {
      let png = try CoderRegistry.shared.encode(Image(pixels: sheet), as: .png)
      try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: output).deletingLastPathComponent(), withIntermediateDirectories: true)
      try InputFile.write(png, to: output)
    } catch let error as MagpieError {
      throw .failure("write \(output)", error)
    } catch let error as CLIError {
      throw error
    } catch {
      throw .failure("write \(output)", InputFile.describe(error))
    }
  }

  /// Thumbnails centred in a grid of 256 px cells on a light background.
  static func contactSheet(_ thumbnails: [PixelBuffer]) -> PixelBuffer {
    let cols = min(columns, max(1, thumbnails.count))
    let rows = (thumbnails.count + cols - 1) / cols
    var sheet = PixelBuffer(width: margin + cols * (cell + margin), height: margin + max(rows, 1) * (cell + margin))
    sheet.fill(SIMD4(236, 236, 236, 255))
    for (index, thumb) in thumbnails.enumerated() {
      let x = margin + (index % cols) * (cell + margin) + (cell - thumb.width) / 2
      let y = margin + (index / cols) * (cell + margin) + (cell - thumb.height) / 2
      sheet.draw(thumb, atX: x, y: y)
    }
    return sheet
  }

  private static func format(_ duration: Duration) -> String {
    String(format: "%.1f", duration.milliseconds)
  }

  private static func row(_ cells: String...) -> String {
    let widths = [18, 7, 11, 7, 10, 9]
    return zip(cells, widths).enumerated().map { index, pair in
      let (text, width) = pair
      let pad = String(repeating: " ", count: max(0, width - text.count))
      return index < 2 ? text + pad : pad + text
    }.joined(separator: "  ")
  }
}
