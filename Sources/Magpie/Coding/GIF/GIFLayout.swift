import Foundation

/// What a GIF's records declare, read by walking them without decompressing
/// any pixel data: the canvas, how many frames there are and their delays.
///
/// ``GIFCoder`` reads it for `info(of:)`, and before decoding so that an
/// animation too large for the limits is refused before any canvas exists.
struct GIFLayout {
  /// The logical screen, or the first frame's extent when the screen
  /// declares no size (browsers show such files at the frame's size).
  var canvas: PixelSize
  /// Each frame's delay in milliseconds, as stored (browser rules not applied).
  var delays: [Int]
  /// The NETSCAPE2.0 / ANIMEXTS1.0 loop count, when the file has one.
  var loopCount: Int?
  /// The ICCRGBG1012 extension's profile, `nil` without one.
  var colorProfile: ColorProfile?
  /// Each frame's descriptor and graphic control, as stored.
  var frames: [GIFFileReader.FrameHeader]
  /// Where each frame's records (its extensions, then its descriptor)
  /// start, for ``GIFFileReader/seek(toRecordAt:framesRead:)``.
  var recordOffsets: [Int]

  /// How many frames the records declare.
  var frameCount: Int { delays.count }

  /// Why the walk stopped before the trailer, when it did so after the
  /// first frame's data: a bad record, or a later frame cut short (that
  /// frame is counted: decoding keeps it as far as it goes). Damage before
  /// that is thrown.
  var damage: MagpieError?

  /// Walks the records of `data`, stopping at the header of frame
  /// `frameLimit` (the first is 1): a decode of the first frame only needs
  /// the canvas, not a walk over every frame's data.
  init(walking data: Data, frameLimit: Int = .max) throws(MagpieError) {
    var damage: MagpieError?
    var frames: [GIFFileReader.FrameHeader] = []
    var offsets: [Int] = []
    let (canvas, delays, loopCount, icc) = try GIFFileReader.withReader(data) {
      reader throws(MagpieError) -> (PixelSize?, [Int], Int?, Data?) in
      var canvas: PixelSize?
      var delays: [Int] = []
      var complete = 0
      do throws(MagpieError) {
        var offset = reader.recordOffset
        while let frame = try reader.nextFrame() {
          if canvas == nil { canvas = Self.canvasSize(reader: reader, firstFrame: frame) }
          delays.append(frame.delayCentiseconds * 10)
          frames.append(frame)
          offsets.append(offset)
          if delays.count >= frameLimit { break }
          try reader.skipImageData(frame: reader.frameCount)
          complete += 1
          offset = reader.recordOffset
        }
        damage = reader.damage
      } catch {
        guard complete > 0 else { throw error }
        damage = error
      }
      return (canvas, delays, reader.loopCount, reader.iccData)
    }
    guard let canvas, canvas.width > 0, canvas.height > 0 else {
      throw MagpieError(.corruptData, "gif declares an empty size")
    }
    self.canvas = canvas
    self.delays = delays
    self.loopCount = loopCount
    colorProfile = icc.map { ColorProfile(iccData: $0) }
    self.frames = frames
    self.recordOffsets = offsets
    self.damage = damage
  }

  /// The canvas for a file whose first frame is `firstFrame`.
  static func canvasSize(reader: GIFFileReader, firstFrame: GIFFileReader.FrameHeader) -> PixelSize {
    if reader.screenWidth > 0 && reader.screenHeight > 0 {
      return PixelSize(width: reader.screenWidth, height: reader.screenHeight)
    }
    return PixelSize(width: firstFrame.left + firstFrame.width, height: firstFrame.top + firstFrame.height)
  }
}
