/// An APNG `fcTL` chunk: where a frame goes on the canvas, how long it shows,
/// and how it meets the pixels already there.
struct APNGFrameControl: Sendable, Equatable {
  /// What happens to the frame's rectangle after the frame has been shown.
  enum DisposeOp: UInt8, Sendable {
    /// Leave the canvas as the frame drew it.
    case none = 0
    /// Clear the rectangle to transparent black.
    case background = 1
    /// Put back what the rectangle held before the frame was drawn.
    case previous = 2
  }

  /// How the frame's pixels meet the canvas.
  enum BlendOp: UInt8, Sendable {
    /// Replace the rectangle, alpha included.
    case source = 0
    /// Composite the frame over the rectangle (Porter-Duff over).
    case over = 1
  }

  /// Position in the sequence shared by `fcTL` and `fdAT` chunks.
  var sequenceNumber: UInt32
  /// The frame's rectangle on the canvas.
  var width: Int
  /// The frame's rectangle on the canvas.
  var height: Int
  /// The frame's rectangle on the canvas.
  var x: Int
  /// The frame's rectangle on the canvas.
  var y: Int
  /// Delay numerator: the frame shows `delayNumerator / delayDenominator` s.
  var delayNumerator: Int
  /// Delay denominator; 0 means 100 (hundredths of a second).
  var delayDenominator: Int
  /// What happens after the frame is shown.
  var disposeOp: DisposeOp
  /// How the frame is drawn.
  var blendOp: BlendOp

  /// A frame control for a rectangle that is known to lie inside its
  /// canvas (WebP's demuxer checks its frames), shown for `milliseconds`.
  init(x: Int, y: Int, width: Int, height: Int, milliseconds: Int, disposeOp: DisposeOp, blendOp: BlendOp) {
    sequenceNumber = 0
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
    (delayNumerator, delayDenominator) = (milliseconds, 1000)
    self.disposeOp = disposeOp
    self.blendOp = blendOp
  }

  /// Parses the 26 data bytes of an `fcTL` chunk and checks that the frame
  /// lies inside a canvas of `canvas` pixels.
  init(parsing data: UnsafeRawBufferPointer, canvas: PixelSize) throws(MagpieError) {
    guard data.count == 26 else {
      throw MagpieError(.corruptData, "an APNG fcTL chunk has \(data.count) data bytes instead of 26")
    }
    sequenceNumber = PNGChunk.bigEndian32(data, at: 0)
    width = Int(PNGChunk.bigEndian32(data, at: 4))
    height = Int(PNGChunk.bigEndian32(data, at: 8))
    x = Int(PNGChunk.bigEndian32(data, at: 12))
    y = Int(PNGChunk.bigEndian32(data, at: 16))
    delayNumerator = Int(PNGChunk.bigEndian16(data, at: 20))
    delayDenominator = Int(PNGChunk.bigEndian16(data, at: 22))
    guard let dispose = DisposeOp(rawValue: data[24]) else {
      throw MagpieError(.corruptData, "APNG frame \(sequenceNumber) has an unknown dispose op \(data[24])")
    }
    guard let blend = BlendOp(rawValue: data[25]) else {
      throw MagpieError(.corruptData, "APNG frame \(sequenceNumber) has an unknown blend op \(data[25])")
    }
    disposeOp = dispose
    blendOp = blend
    // Every value is below 2^32, so the sums cannot overflow Int.
    guard width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height else {
      throw MagpieError(
        .corruptData,
        "APNG frame rectangle \(width)x\(height) at (\(x), \(y)) does not lie inside the \(canvas) canvas")
    }
  }

  /// The delay in whole milliseconds, rounded to nearest.
  var delayMilliseconds: Int {
    let denominator = delayDenominator == 0 ? 100 : delayDenominator
    return (delayNumerator * 1000 + denominator / 2) / denominator
  }

  /// The delay as browsers play it.
  var duration: Duration { ImageFrame.browserDuration(milliseconds: delayMilliseconds) }
}
