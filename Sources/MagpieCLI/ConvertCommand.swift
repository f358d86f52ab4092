import Foundation
import Magpie

/// `magpie convert IN OUT [--format F] [--quality Q] [--process SPEC]
/// [--icc none|original|srgb] [--keep-metadata]`: decode, process, encode;
/// prints `{"width","height","format","bytes"}`. EXIF and XMP are dropped
/// unless `--keep-metadata`; `--icc` says which colour profile to embed.
enum ConvertCommand {
  static func run(_ words: [String]) throws(CLIError) {
    let arguments = try ParsedArguments(
      words, valued: ["--format", "--quality", "--process", "--icc"], switches: ["--keep-metadata"])
    guard arguments.positionals.count == 2 else {
      throw .usage("convert", "expected IN and OUT, got \(arguments.positionals.count) paths")
    }
    let input = arguments.positionals[0]
    let output = arguments.positionals[1]
    let format = try outputFormat(arguments.value("--format"), path: output)
    let quality = try arguments.integer("--quality", in: 0...100, default: EncodeOptions().quality)
    let spec = try arguments.value("--process").map { (text) throws(CLIError) in try ProcessSpec.parsing(text) }
    var encodeOptions = EncodeOptions(quality: quality)
    encodeOptions.keepsMetadata = arguments.flag("--keep-metadata")
    if let icc = arguments.value("--icc") {
      guard let embedding = ProfileEmbedding.allCases.first(where: { $0.rawValue.lowercased() == icc.lowercased() })
      else { throw .usage("--icc", "expected none, original or srgb, got '\(icc)'") }
      encodeOptions.colorProfile = embedding
    }

    let data = try InputFile.readFile(input)
    // Formats without animation only ever need the first frame (PNG writes
    // an animation as APNG; JPEG XL has its own). Animations stream from
    // their frame source through the processors into the encoder, so one
    // over the all-frames decode limit converts in bounded memory.
    let animatable = format == .gif || format == .webp || format == .png || format == .jxl
    var decodeOptions = DecodeOptions(targetSize: spec?.decodeTarget, firstFrameOnly: !animatable)
    // A vector is drawn at the size the first resize asks for, not drawn
    // at its own size and then scaled.
    if ImageFormat.sniff(data).isVector, let target = spec?.renderTarget {
      decodeOptions.targetSize = target.size
      decodeOptions.contentMode = target.mode
    }
    decodeOptions.decodesFramesOnDemand = animatable
    decodeOptions.keepsMetadata = encodeOptions.keepsMetadata
    var image: Image
    do {
      image = try CoderRegistry.shared.decode(data, options: decodeOptions)
    } catch {
      throw .failure("decode \(input)", error)
    }
    if let spec { image = try spec.apply(to: image) }
    // An animation written to .png keeps its frames, as APNG.
    let written: ImageFormat = format == .png && image.isAnimated ? .apng : format
    let encoded: Data
    do {
      encoded = try CoderRegistry.shared.encode(image, as: written, options: encodeOptions)
    } catch {
      throw .failure("encode \(output)", error)
    }
    try InputFile.write(encoded, to: output)
    let record = JSONValue.object([
      ("width", .int(image.pixelSize.width)),
      ("height", .int(image.pixelSize.height)),
      ("format", .string(written.rawValue)),
      ("bytes", .int(encoded.count)),
    ])
    print(record.text)
  }

  /// The format `--format` names, else the one `path`'s extension names.
  static func outputFormat(_ option: String?, path: String) throws(CLIError) -> ImageFormat {
    if let option {
      guard let format = format(named: option) else {
        throw .usage("--format", "expected jpeg, png, gif, webp, avif, heic, jxl or bmp, got '\(option)'")
      }
      return format
    }
    let ext = URL(fileURLWithPath: path).pathExtension
    guard let format = format(named: ext) else {
      throw .usage("convert", "cannot tell the format from '\(path)'; add --format jpeg|png|gif|webp|avif|heic|jxl|bmp")
    }
    return format
  }

  private static func format(named name: String) -> ImageFormat? {
    switch name.lowercased() {
    case "jpeg", "jpg": .jpeg
    case "png": .png
    case "gif": .gif
    case "webp": .webp
    case "avif": .avif
    case "heic", "heif": .heic
    case "jxl": .jxl
    case "bmp": .bmp
    default: nil
    }
  }
}
