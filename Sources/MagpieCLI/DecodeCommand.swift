import Foundation
import Magpie

/// `magpie decode FILE... --out DIR`: the checkable ground truth of the
/// decoders. For each input, `DIR/NAME.rgba` (straight-alpha RGBA8, upright,
/// every frame composited, frames one after another) and `DIR/NAME.json`.
/// The stored values, untouched by any colour profile (the raw decoder
/// output the contract promises), unless `--color srgb` asks for the
/// library's default conversion to sRGB.
enum DecodeCommand {
  static func run(_ words: [String]) throws(CLIError) {
    let arguments = try ParsedArguments(words, valued: Set(["--out", "--color"]).union(DecodeOptions.limitFlags))
    guard let out = arguments.value("--out") else { throw .usage("decode", "--out DIR is required") }
    guard !arguments.positionals.isEmpty else { throw .usage("decode", "expected at least one FILE") }
    var options = DecodeOptions()
    try options.applyLimits(from: arguments)
    switch arguments.value("--color") {
    case nil: options.colorManagement = .preserve
    case "srgb": options.colorManagement = .convertToSRGB
    case let other?: throw .usage("decode", "--color takes srgb, not \(other)")
    }
    do {
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    } catch {
      throw .failure("create \(out)", InputFile.describe(error))
    }
    var failures: [CLIError] = []
    for path in arguments.positionals {
      do {
        try decode(path, into: out, options: options)
      } catch {
        failures.append(error)
        MagpieCommand.report(error)
      }
    }
    if let last = failures.last {
      // Each failure already printed its line; exit 1 without another.
      throw last.silenced
    }
  }

  private static func decode(_ path: String, into directory: String, options: DecodeOptions) throws(CLIError) {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let base = URL(fileURLWithPath: directory).appendingPathComponent(name)
    let rgbaPath = base.path + ".rgba"
    let jsonPath = base.path + ".json"
    let images: [Image]
    do throws(CLIError) {
      let data = try InputFile.readFile(path)
      do {
        // An icon's entries (largest first) as frames of their own sizes; a
        // PDF's first page only.
        let multi = CoderRegistry.shared.decoder(for: data) as? any MultiImageCoder
        images =
          multi?.decodesSubimagesAsFrames == false
          ? [try CoderRegistry.shared.decode(data, options: options)]
          : try CoderRegistry.shared.decodeSubimages(data, options: options)
      } catch {
        throw CLIError.failure("decode \(path)", error)
      }
    } catch {
      // No .rgba for an input that did not decode, not even a stale one.
      try? FileManager.default.removeItem(atPath: rgbaPath)
      let record = JSONValue.object([("error", .string(error.why))])
      try InputFile.write(Data((record.text + "\n").utf8), to: jsonPath)
      throw error
    }
    try writeFrames(of: images, to: rgbaPath)
    try InputFile.write(Data((ImageJSON.decoded(images).text + "\n").utf8), to: jsonPath)
  }

  /// Streams frames to a temporary file, then renames it into place;
  /// memory stays at the decoded image plus a small scratch buffer.
  private static func writeFrames(of images: [Image], to path: String) throws(CLIError) {
    let temporary = path + ".partial"
    guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
      throw .failure("write \(path)", String(cString: strerror(errno)))
    }
    do {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
      defer { try? handle.close() }
      let writer = RawRGBAWriter(descriptor: handle.fileDescriptor, path: path)
      for frame in images.flatMap(\.frames) {
        try writer.write(frame.pixels)
      }
      try handle.synchronize()
      guard rename(temporary, path) == 0 else {
        throw CLIError.failure("write \(path)", String(cString: strerror(errno)))
      }
    } catch let error as CLIError {
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw .failure("write \(path)", InputFile.describe(error))
    }
  }
}
