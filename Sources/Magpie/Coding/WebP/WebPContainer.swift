import CWebP
import Foundation

/// A parsed WebP container (RIFF chunks, via libwebpdemux): canvas size,
/// feature flags, frames and their durations, loop count and the EXIF
/// orientation, without decoding pixels.
///
/// Must not outlive the bytes it was parsed from (the demuxer keeps
/// pointers into them), so it exists inside ``withContainer(_:_:)``, or over
/// bytes its owner keeps (``WebPFrameSource``).
final class WebPContainer {
  private let demux: OpaquePointer

  /// Canvas width in pixels (the image's width for a still).
  let width: Int
  /// Canvas height in pixels.
  let height: Int
  /// Number of frames; 1 for a still image.
  let frameCount: Int
  /// Whether the VP8X header says the file is animated.
  let isAnimated: Bool
  /// The stored loop count (0 = forever); meaningful for animations only.
  let loopCount: Int
  /// The orientation in the `EXIF` chunk, `.up` without one.
  let orientation: ImageOrientation
  /// The ICCP chunk's profile, `nil` without one.
  let colorProfile: ColorProfile?

  /// Parses `data` and runs `body` with the container and the bytes, which
  /// stay pinned for the call; neither may escape.
  static func withContainer<R>(
    _ data: Data, _ body: (WebPContainer, UnsafeRawBufferPointer) throws(MagpieError) -> R
  ) throws(MagpieError) -> R {
    try PinnedBytes.with(data) { bytes throws(MagpieError) -> R in try body(try WebPContainer(bytes: bytes), bytes) }
  }

  /// Parses `bytes`, which must stay valid and unchanged for the
  /// container's life.
  init(bytes: UnsafeRawBufferPointer) throws(MagpieError) {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw MagpieError(.truncatedData, "webp data is empty")
    }
    var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
    var state = WEBP_DEMUX_PARSING_HEADER
    // Partial parsing tells a short file (state not DONE) from a broken one.
    guard let demux = WebPDemuxPartial(&data, &state) else {
      if state == WEBP_DEMUX_PARSE_ERROR {
        throw MagpieError(.corruptData, "webp container is malformed (bad RIFF or chunk layout)")
      }
      throw MagpieError(.truncatedData, "webp data ends inside its header")
    }
    guard state == WEBP_DEMUX_DONE else {
      WebPDemuxDelete(demux)
      throw MagpieError(.truncatedData, "webp data ends before its last chunk does (\(bytes.count) bytes)")
    }
    let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
    let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
    let frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
    guard frameCount > 0, width > 0, height > 0 else {
      WebPDemuxDelete(demux)
      throw MagpieError(.corruptData, "webp has no frame or an empty canvas")
    }
    self.demux = demux
    self.width = width
    self.height = height
    self.frameCount = frameCount
    let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
    isAnimated = flags & ANIMATION_FLAG.rawValue != 0
    loopCount = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
    var chunk = WebPChunkIterator()
    if WebPDemuxGetChunk(demux, "EXIF", 1, &chunk) != 0, let exif = chunk.chunk.bytes {
      orientation = EXIFOrientationReader.orientation(
        inEXIF: UnsafeRawBufferPointer(start: exif, count: chunk.chunk.size))
    } else {
      orientation = .up
    }
    WebPDemuxReleaseChunkIterator(&chunk)
    var icc = WebPChunkIterator()
    // The chunk lies inside the data, so its size is bounded by it.
    if flags & ICCP_FLAG.rawValue != 0, WebPDemuxGetChunk(demux, "ICCP", 1, &icc) != 0, let bytes = icc.chunk.bytes,
      icc.chunk.size > 0
    {
      colorProfile = ColorProfile(iccData: Data(bytes: bytes, count: icc.chunk.size))
    } else {
      colorProfile = nil
    }
    WebPDemuxReleaseChunkIterator(&icc)
  }

  deinit { WebPDemuxDelete(demux) }

  /// Runs `body` on the first `count` frames in order, each with libwebp's
  /// iterator: its rectangle, dispose and blend methods, duration and the
  /// frame's own bitstream (pointing into the container's bytes).
  func forEachFrame(upTo count: Int, _ body: (WebPIterator) throws(MagpieError) -> Void) throws(MagpieError) {
    var iterator = WebPIterator()
    guard count > 0, WebPDemuxGetFrame(demux, 1, &iterator) != 0 else {
      throw MagpieError(.corruptData, "webp animation has no readable first frame")
    }
    defer { WebPDemuxReleaseIterator(&iterator) }
    var seen = 0
    repeat {
      try body(iterator)
      seen += 1
    } while seen < count && WebPDemuxNextFrame(&iterator) != 0
  }

  /// Runs `body` with libwebp's iterator on frame `index` (0 is the first),
  /// or throws when the demuxer has no such frame.
  func withFrame<R>(at index: Int, _ body: (WebPIterator) throws(MagpieError) -> R) throws(MagpieError) -> R {
    var iterator = WebPIterator()
    guard WebPDemuxGetFrame(demux, Int32(index + 1), &iterator) != 0 else {
      throw MagpieError(.corruptData, "webp animation frame \(index + 1) cannot be read")
    }
    defer { WebPDemuxReleaseIterator(&iterator) }
    return try body(iterator)
  }

  /// Each frame's stored duration in milliseconds.
  func frameDurations() -> [Int] {
    var iterator = WebPIterator()
    guard WebPDemuxGetFrame(demux, 1, &iterator) != 0 else { return [] }
    defer { WebPDemuxReleaseIterator(&iterator) }
    var durations: [Int] = []
    repeat { durations.append(Int(iterator.duration)) } while WebPDemuxNextFrame(&iterator) != 0
    return durations
  }
}
