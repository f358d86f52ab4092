/// Composites GIF frames onto the logical screen the way browsers show them:
/// the canvas starts transparent, each frame's opaque pixels are drawn
/// inside its rectangle (clipped to the canvas), and before the next frame
/// the previous one is disposed of: 0 and 1 leave it, 2 clears its rectangle
/// to transparent (browsers ignore the background colour), 3 restores what
/// was there before it was drawn.
final class GIFCompositor {
  /// Canvas width in pixels.
  let width: Int
  /// Canvas height in pixels.
  let height: Int
  /// The palette of the frame being drawn: opaque RGBA words, 0 for
  /// the transparent index (see ``GIFFileReader/fillColorTable(_:transparentIndex:)``).
  let colorTable: UnsafeMutablePointer<UInt32>

  private let canvas: UnsafeMutablePointer<UInt32>
  /// The clipped rectangle of the frame being drawn.
  private var frameRect = (x: 0, y: 0, width: 0, height: 0)
  private var frameHasTransparency = false
  /// The previous frame's rectangle and how to dispose of it.
  private var pending: (x: Int, y: Int, width: Int, height: Int, disposal: Int)?
  /// The canvas under the current frame's rectangle, kept for disposal 3.
  private var saved: UnsafeMutablePointer<UInt32>?
  private var savedCapacity = 0

  /// A transparent canvas of `width` by `height`; the caller has checked the
  /// size against the pixel limit.
  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    canvas = .allocate(capacity: width * height)
    canvas.initialize(repeating: 0, count: width * height)
    colorTable = .allocate(capacity: 256)
    colorTable.initialize(repeating: 0, count: 256)
  }

  deinit {
    canvas.deallocate()
    colorTable.deallocate()
    saved?.deallocate()
  }

  /// Makes the canvas transparent and forgets the previous frame, as before
  /// the first frame (a frame source starting again at a keyframe).
  func reset() {
    canvas.update(repeating: 0, count: width * height)
    pending = nil
  }

  /// Disposes of the previous frame and prepares to draw one at `left`,
  /// `top` of `frameWidth` by `frameHeight` (clipped to the canvas) that will
  /// be disposed of with `disposal`.
  func beginFrame(left: Int, top: Int, frameWidth: Int, frameHeight: Int, disposal: Int, hasTransparency: Bool) {
    if let pending {
      switch pending.disposal {
      case 2: fill(pending.x, pending.y, pending.width, pending.height)
      case 3: restore(pending.x, pending.y, pending.width, pending.height)
      default: break
      }
    }
    let x = min(left, width)
    let y = min(top, height)
    frameRect = (x, y, min(frameWidth, width - x), min(frameHeight, height - y))
    frameHasTransparency = hasTransparency
    // Firefox reads 4 as "restore previous" and anything above as "none".
    let effective = disposal == 4 ? 3 : (disposal > 4 ? 0 : disposal)
    pending = (frameRect.x, frameRect.y, frameRect.width, frameRect.height, effective)
    if effective == 3 { save(frameRect.x, frameRect.y, frameRect.width, frameRect.height) }
  }

  /// Draws one row of palette indices, `frameRow` rows below the frame's
  /// top; parts outside the canvas are dropped.
  @inline(__always)
  func drawRow(_ indices: UnsafePointer<UInt8>, frameRow: Int) {
    let y = frameRect.y + frameRow
    guard y < height, frameRow < frameRect.height else { return }
    let dst = canvas + y * width + frameRect.x
    let table = colorTable
    let count = frameRect.width
    if frameHasTransparency {
      for i in 0..<count {
        let color = table[Int(indices[i])]
        if color != 0 { dst[i] = color }
      }
    } else {
      for i in 0..<count { dst[i] = table[Int(indices[i])] }
    }
  }

  /// A copy of the canvas as it is shown now.
  func snapshot() -> PixelBuffer { CanvasSnapshot.pixels(copying: canvas, width: width, height: height) }

  private func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
    guard w > 0 else { return }
    for row in y..<(y + h) { (canvas + row * width + x).update(repeating: 0, count: w) }
  }

  private func save(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
    let needed = w * h
    if needed > savedCapacity {
      saved?.deallocate()
      saved = .allocate(capacity: needed)
      savedCapacity = needed
    }
    guard let saved, w > 0 else { return }
    for row in 0..<h { (saved + row * w).update(from: canvas + (y + row) * width + x, count: w) }
  }

  private func restore(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
    guard let saved, w > 0 else { return }
    for row in 0..<h { (canvas + (y + row) * width + x).update(from: saved + row * w, count: w) }
  }
}

/// Copies a composited animation canvas (straight RGBA, rows packed)
/// into a new frame buffer and notes whether it is opaque; the GIF
/// compositor hands out frames this way.
enum CanvasSnapshot {
  /// A buffer holding a copy of the `width` by `height` canvas at `canvas`.
  static func pixels(copying canvas: UnsafeRawPointer, width: Int, height: Int) -> PixelBuffer {
    let count = width * height
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: .straight) { raw in
      raw.baseAddress!.copyMemory(from: canvas, byteCount: count * PixelBuffer.bytesPerPixel)
      return PixelBuffer.allOpaque(UnsafeRawBufferPointer(raw))
    }
  }
}
