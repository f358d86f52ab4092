#if canImport(MagpieVideo)
  import Foundation
  import Testing

  @testable import Magpie

  /// Frames FFmpeg's own tool makes (Debian's ffmpeg, which `make test`
  /// installs): `ffmpeg -frames:v 1`, autorotated as it does by default.
  enum VideoReference {
    /// `ffmpeg`'s first frame of `video` at or after `seconds`, scaled to
    /// `size` with area averaging when given, as straight RGBA.
    static func frame(_ video: URL, at seconds: Double = 0, size: PixelSize? = nil) throws -> PixelBuffer {
      let dir = try TemporaryDirectory()
      var arguments = ["-v", "error", "-y"]
      if seconds > 0 { arguments += ["-ss", String(seconds)] }
      arguments += ["-i", video.path, "-frames:v", "1"]
      if let size { arguments += ["-vf", "scale=\(size.width):\(size.height):flags=area"] }
      try ReferenceTool.run("ffmpeg", arguments + ["-pix_fmt", "rgba", dir.path("out.png")])
      return try ReferenceTool.png(dir.path("out.png"))
    }
  }
#endif
