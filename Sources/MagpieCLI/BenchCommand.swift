import Foundation
import Magpie

/// `magpie bench TASK LISTFILE REPS WARMUP`: the side-by-side benchmark
/// protocol of CONTRACT.md, so Magpie can be timed in the same run as
/// Pillow, pyvips and others, each in its own process.
enum BenchCommand {
  /// The box the `thumb` task fits images into.
  static let thumbnailBox = PixelSize(width: 256, height: 256)

  static func run(_ words: [String]) throws(CLIError) {
    let arguments = try ParsedArguments(words)
    guard arguments.positionals.count == 4 else {
      throw .usage("bench", "expected TASK LISTFILE REPS WARMUP")
    }
    let task = arguments.positionals[0]
    // `process:SPEC` and `thumb-batch` are Magpie's additions to the
    // protocol (ProcessSpec+Bench.swift).
    let processSpec = try ProcessSpec.benchSpec(task)
    guard
      ["decode", "decode-scaled", "thumb", "thumb-unscaled", "webp", "noop", "thumb-batch"].contains(task)
        || processSpec != nil
    else {
      throw .usage(
        "bench",
        "unknown task '\(task)'; expected decode, decode-scaled, thumb, thumb-unscaled, thumb-batch, webp, "
          + "process:SPEC or noop")
    }
    guard let reps = Int(arguments.positionals[2]), reps >= 0,
      let warmup = Int(arguments.positionals[3]), warmup >= 0
    else {
      throw .usage("bench", "REPS and WARMUP must be whole numbers >= 0")
    }
    let meta = JSONValue.object([
      ("meta", .object(LibraryVersions.all.map { ($0.name, .string($0.version)) }))
    ])
    print(meta.text)
    if task == "noop" { return }
    let listText = String(decoding: try InputFile.readFile(arguments.positionals[1]), as: UTF8.self)
    let paths = listText.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    if task == "thumb-batch" {
      print(ProcessSpec.measureBatch(listFile: arguments.positionals[1], paths: paths, reps: reps, warmup: warmup).text)
      return
    }
    if let processSpec {
      for path in paths {
        print(processSpec.measure(path: path, reps: reps, warmup: warmup).text)
        fflush(nil)
      }
      return
    }
    for path in paths {
      print(measure(task: task, path: path, reps: reps, warmup: warmup).text)
      fflush(nil)
    }
  }

  private static func measure(task: String, path: String, reps: Int, warmup: Int) -> JSONValue {
    do {
      let run: () throws -> PixelSize
      switch task {
      case "decode":
        run = { try CoderRegistry.shared.decode(readBytes(path)).pixelSize }
      case "decode-scaled":
        run = { try decodeScaled(readBytes(path)).pixelSize }
      case "thumb":
        run = { try thumbnail(readBytes(path)).pixelSize }
      case "thumb-unscaled":
        // The thumbnail without any decode-time size: a vector drawn at its
        // own size, then shrunk (what the render-at-size path is measured against).
        run = {
          let image = try CoderRegistry.shared.decode(readBytes(path), options: DecodeOptions(firstFrameOnly: true))
          return try thumbnailer.process(item: .image(image), options: ImageProcessingOptions()).pixelSize
        }
      default:
        let image = try CoderRegistry.shared.decode(readBytes(path))
        run = {
          _ = try CoderRegistry.shared.encode(image, as: .webp, options: EncodeOptions(quality: 80))
          return image.pixelSize
        }
      }
      var size = PixelSize(width: 0, height: 0)
      for _ in 0..<warmup { size = try run() }
      var times: [JSONValue] = []
      let clock = ContinuousClock()
      for _ in 0..<reps {
        let start = clock.now
        size = try run()
        times.append(.double((clock.now - start).milliseconds))
      }
      return .object([
        ("path", .string(path)), ("ms", .array(times)), ("out", .array([.int(size.width), .int(size.height)])),
      ])
    } catch let error as MagpieError {
      return .object([("path", .string(path)), ("skip", .string(error.description))])
    } catch let error as CLIError {
      return .object([("path", .string(path)), ("skip", .string("\(error.what): \(error.why)"))])
    } catch {
      return .object([("path", .string(path)), ("skip", .string("\(error)"))])
    }
  }

  private static func readBytes(_ path: String) throws(CLIError) -> Data {
    try InputFile.readFile(path)
  }

  /// Shrink-on-load by 8 (JPEG DCT scaling; formats that cannot shrink
  /// while decoding decode at full size): the near-limit for thumbnails.
  static func decodeScaled(_ data: Data) throws(MagpieError) -> Image {
    let size = try CoderRegistry.shared.info(of: data).size
    let eighth = PixelSize(width: (size.width + 7) / 8, height: (size.height + 7) / 8)
    return try CoderRegistry.shared.decode(data, options: DecodeOptions(targetSize: eighth, firstFrameOnly: true))
  }

  /// Fit inside 256x256, keeping the aspect ratio, never upscaling, first
  /// frame only: the Downsampling processor given the bytes, so it shrinks
  /// while decoding (and decodes only the scans a scaled progressive JPEG
  /// needs), then Lanczos-3 the rest of the way.
  static func thumbnail(_ data: Data) throws(MagpieError) -> Image {
    let options = ImageProcessingOptions(firstFrameOnly: true)
    // A decode failure comes back with its own code and reason.
    return try thumbnailer.process(item: .data(data), options: options)
  }

  private static let thumbnailer = ImageProcessors.Downsampling(size: thumbnailBox)
}
