import CVideoLoader
import Foundation
import Magpie

/// A video opened by FFmpeg from memory (see `video_loader.h`): what its
/// container says, and one of its frames as pixels.
final class VideoFile {
  private let handle: UnsafeMutableRawPointer
  /// What the container and its video stream say.
  let info: mp_video_info

  /// Opens `data`, its reads bounded by `limit` of wall time.
  init(_ data: Data, limit: Duration?) throws(MagpieError) {
    var info = mp_video_info()
    var message = ""
    let milliseconds = limit.map { Int64(max(1, $0.wholeMilliseconds)) } ?? 0
    let opened: UnsafeMutableRawPointer? = data.withUnsafeBytes { bytes in
      withCErrorMessage(&message) { error, capacity in
        mp_video_open(
          bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, milliseconds, &info, error, capacity)
      }
    }
    guard let opened else {
      if mp_video_library_open() == 0 {
        throw MagpieError(.unsupportedFormat, "FFmpeg could not be loaded: \(message)")
      }
      throw MagpieError(.corruptData, "video could not be read: \(message)")
    }
    handle = opened
    self.info = info
  }

  deinit { mp_video_close(handle) }

  /// The coded frame size.
  var size: PixelSize { PixelSize(width: Int(info.width), height: Int(info.height)) }

  /// The display rotation as an orientation that turns the frame upright.
  var orientation: ImageOrientation {
    // The display matrix turns counter-clockwise; EXIF 6 turns clockwise by 90.
    switch info.rotation {
    case 90: .left
    case 180: .down
    case 270: .right
    default: .up
    }
  }

  /// The container's duration, frame rate and codec.
  func metadata(frameTime: Duration) -> VideoMetadata {
    VideoMetadata(
      duration: info.duration > 0 ? .milliseconds(Int64((info.duration * 1000).rounded())) : nil,
      frameRate: info.frame_rate > 0 ? info.frame_rate : nil,
      codec: withUnsafeBytes(of: info.codec) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) },
      frameTime: frameTime)
  }

  /// The frame at or after `time` in seconds, scaled to `size`, opaque RGBA.
  func frame(at time: Double, maxPixels: Int, scaledTo size: PixelSize) throws(MagpieError) -> PixelBuffer {
    var message = ""
    return try PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .straight) {
      (raw: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      let result = withCErrorMessage(&message) { error, capacity in
        mp_video_frame(
          handle, time, Int64(maxPixels), Int32(size.width), Int32(size.height),
          raw.baseAddress!.assumingMemoryBound(to: UInt8.self), error, capacity)
      }
      if result == -2 { throw MagpieError(.limitExceeded, "video: \(message)") }
      guard result == 0 else { throw MagpieError(.corruptData, "video frame could not be decoded: \(message)") }
      return true
    }
  }
}
