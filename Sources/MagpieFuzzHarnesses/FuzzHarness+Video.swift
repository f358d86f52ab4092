#if canImport(MagpieVideo)
  import Foundation
  import Magpie
  import MagpieVideo

  extension FuzzHarness {
    /// The video coder: FFmpeg's MP4/MOV and Matroska/WebM demuxers and
    /// decoders over in-memory bytes, behind Magpie's limits.
    static let video = FuzzHarness(name: "video", seedExtensions: ["mp4", "mov", "webm"], maxLength: 64 << 10) {
      data in
      FuzzDecoding.exercise(VideoCoder(), data)
    }
  }
#endif
