import Magpie

/// The JSON shapes the CLI prints, in the contract's field order.
enum ImageJSON {
  /// `magpie info`: `{"format","width","height","frames","loop_count","delays_ms","orientation","bytes"}`.
  static func info(_ info: ImageInfo) -> JSONValue {
    .object([
      ("format", .string(info.format.rawValue)),
      ("width", .int(info.size.width)),
      ("height", .int(info.size.height)),
      ("frames", .int(info.frameCount)),
      ("loop_count", .int(info.loopCount)),
      ("delays_ms", .array(info.frameDurations.map { .int($0.wholeMilliseconds) })),
      ("orientation", .int(info.orientation.rawValue)),
      ("bytes", .int(info.byteCount)),
    ])
  }

  /// `magpie decode`'s per-file record: `{"width","height","frames","delays_ms","loop_count"}`.
  static func decoded(_ image: Image) -> JSONValue {
    .object([
      ("width", .int(image.pixelSize.width)),
      ("height", .int(image.pixelSize.height)),
      ("frames", .int(image.frames.count)),
      ("delays_ms", .array(image.frames.map { .int($0.durationMilliseconds) })),
      ("loop_count", .int(image.loopCount)),
    ])
  }
}
