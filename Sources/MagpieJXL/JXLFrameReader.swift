import CJXL
import Magpie

/// Decodes a session's frames one after another into RGBA8 buffers: each
/// buffer is allocated only when libjxl asks for it, after the basic info
/// (and so the pixel limit) has been checked by whoever made the session.
struct JXLFrameReader {
  /// The size every frame comes out at.
  let canvas: PixelSize
  /// Whether a file that ends inside a frame gives what was decoded of it.
  let allowsPartial: Bool

  /// The next frame, with whether it is only partly decoded; `nil` when
  /// the file has no more frames.
  func next(from session: JXLSession) throws(MagpieError) -> (pixels: PixelBuffer, isPartial: Bool)? {
    while true {
      switch session.process() {
      case JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME:
        continue
      case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
        var partial = false
        let pixels = try PixelBuffer(uninitializedWidth: canvas.width, height: canvas.height, alpha: .straight) {
          buffer throws(MagpieError) -> Bool in
          // A flushed partial frame may leave undecoded groups unwritten:
          // start from transparent black (a memset, small beside the decode).
          if allowsPartial { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
          try session.setOutput(buffer)
          partial = try finish(session)
          return false
        }
        return (pixels, partial)
      case JXL_DEC_SUCCESS:
        return nil
      case JXL_DEC_NEED_MORE_INPUT:
        throw MagpieError(.truncatedData, "jxl: the file ends before a frame's pixels")
      default:
        throw MagpieError(.corruptData, "jxl: libjxl could not decode a frame")
      }
    }
  }

  /// Runs libjxl until the frame whose buffer is set is complete; returns
  /// true when the file ended first and the partial frame was flushed.
  private func finish(_ session: JXLSession) throws(MagpieError) -> Bool {
    while true {
      switch session.process() {
      case JXL_DEC_FULL_IMAGE:
        return false
      case JXL_DEC_NEED_MORE_INPUT:
        // All the bytes there are were given: the file ends inside the frame.
        if allowsPartial && session.flush() { return true }
        throw MagpieError(.truncatedData, "jxl: the file ends inside a frame")
      default:
        throw MagpieError(.corruptData, "jxl: libjxl could not decode a frame's pixels")
      }
    }
  }
}
