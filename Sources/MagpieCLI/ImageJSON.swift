import Magpie

/// The JSON shapes the CLI prints, in the contract's field order.
enum ImageJSON {
  /// `magpie info`: `{"format","width","height","frames","loop_count","delays_ms","orientation","bytes"}`,
  /// plus a video's `duration_ms`, `frame_rate` and `codec`, and `entries` (an icon's) or `pages`
  /// (a TIFF's, a PDF's) for a file of several images, each
  /// `{"width","height","bits"}` and a cursor's `"hotspot":[x,y]`.
  static func info(_ info: ImageInfo, subimages: [SubimageInfo]? = nil) -> JSONValue {
    var fields: [(String, JSONValue)] = [
      ("format", .string(info.format.rawValue)),
      ("width", .int(info.size.width)),
      ("height", .int(info.size.height)),
      ("frames", .int(info.frameCount)),
      ("loop_count", .int(info.loopCount)),
      ("delays_ms", .array(info.frameDurations.map { .int($0.wholeMilliseconds) })),
      ("orientation", .int(info.orientation.rawValue)),
      ("bytes", .int(info.byteCount)),
    ]
    if let video = info.video {
      fields.append(("duration_ms", video.duration.map { .int($0.wholeMilliseconds) } ?? .null))
      fields.append(("frame_rate", video.frameRate.map { .double($0) } ?? .null))
      fields.append(("codec", .string(video.codec)))
    }
    if let subimages {
      // An icon's images are entries; a TIFF's and a PDF's, pages.
      fields.append((info.format == .ico ? "entries" : "pages", .array(subimages.map(entry))))
    }
    return .object(fields)
  }

  private static func entry(_ subimage: SubimageInfo) -> JSONValue {
    var fields: [(String, JSONValue)] = [
      ("width", .int(subimage.size.width)), ("height", .int(subimage.size.height)),
      ("bits", .int(subimage.bitsPerPixel)),
    ]
    if let hotspot = subimage.hotspot { fields.append(("hotspot", .array([.int(hotspot.x), .int(hotspot.y)]))) }
    return .object(fields)
  }

  /// `magpie decode`'s per-file record: `{"width","height","frames","delays_ms","loop_count"}`; for a
  /// file of several images (an icon's entries) each is a frame, `width` and `height` are the first's,
  /// and `frame_sizes` lists every frame's `[width, height]`.
  static func decoded(_ images: [Image]) -> JSONValue {
    let image = images[0]
    var fields: [(String, JSONValue)] = [
      ("width", .int(image.pixelSize.width)),
      ("height", .int(image.pixelSize.height)),
      ("frames", .int(images.reduce(0) { $0 + $1.frames.count })),
      ("delays_ms", .array(images.flatMap(\.frames).map { .int($0.durationMilliseconds) })),
      ("loop_count", .int(image.loopCount)),
    ]
    if images.count > 1 {
      fields.append(
        ("frame_sizes", .array(images.map { .array([.int($0.pixelSize.width), .int($0.pixelSize.height)]) })))
    }
    return .object(fields)
  }
}
