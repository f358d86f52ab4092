/// Plays APNG frames onto a canvas as the APNG specification says, on
/// straight-alpha pixels (so a frame drawn with blend op "source", or onto
/// a transparent or under an opaque pixel, keeps its stored values
/// exactly), and hands out the canvas after each frame.
struct APNGCompositor {
  /// The canvas size, the IHDR's.
  let size: PixelSize
  /// Straight RGBA, `size.width * 4` bytes a row; transparent black at
  /// the start, as the specification requires.
  private var canvas: [UInt8]
  private var isFirstFrame = true

  /// A transparent canvas of `size`, for the animation's first frame, or
  /// with `startsAtFirstFrame` false for a later frame that needs no frame
  /// before it (a frame source starting at a keyframe: "previous" is then
  /// not read as "background").
  init(size: PixelSize, startsAtFirstFrame: Bool = true) {
    self.size = size
    canvas = [UInt8](repeating: 0, count: size.pixelCount * PixelBuffer.bytesPerPixel)
    isFirstFrame = startsAtFirstFrame
  }

  /// Draws `frame` (straight alpha, the size of `control`'s rectangle) as
  /// `control` says, returns the canvas as it is then shown, and disposes of
  /// the frame for the next one.
  mutating func render(_ frame: PixelBuffer, control: APNGFrameControl) -> PixelBuffer {
    precondition(frame.width == control.width && frame.height == control.height, "frame size differs from its fcTL")
    var dispose = control.disposeOp
    // "previous" on the first frame would restore nothing: the specification
    // says to treat it as "background".
    if isFirstFrame && dispose == .previous { dispose = .background }
    isFirstFrame = false
    let saved = dispose == .previous ? copyRectangle(of: control) : nil
    draw(frame.alphaRepresentation == .straight || frame.isOpaque ? frame : Self.straightened(frame), control: control)
    let shown = PixelBuffer(
      width: size.width, height: size.height, bytesPerRow: size.width * PixelBuffer.bytesPerPixel,
      bytes: canvas, alpha: .straight, isOpaque: isCanvasOpaque())
    switch dispose {
    case .none: break
    case .background: clearRectangle(of: control)
    case .previous: if let saved { restoreRectangle(of: control, from: saved) }
    }
    return shown
  }

  private var canvasRowBytes: Int { size.width * PixelBuffer.bytesPerPixel }

  private mutating func draw(_ frame: PixelBuffer, control: APNGFrameControl) {
    let rowBytes = control.width * PixelBuffer.bytesPerPixel
    let canvasRowBytes = canvasRowBytes
    // "Over" with an opaque frame replaces its rectangle, as "source" does.
    let replaces = control.blendOp == .source || frame.isOpaque
    frame.withUnsafeBytes { src in
      canvas.withUnsafeMutableBytes { dst in
        for row in 0..<control.height {
          let s = src.baseAddress! + row * frame.bytesPerRow
          let d = dst.baseAddress! + (control.y + row) * canvasRowBytes + control.x * PixelBuffer.bytesPerPixel
          if replaces {
            d.copyMemory(from: s, byteCount: rowBytes)
          } else {
            Self.blendOver(
              s.assumingMemoryBound(to: UInt8.self), onto: d.assumingMemoryBound(to: UInt8.self),
              pixels: control.width)
          }
        }
      }
    }
  }

  /// A premultiplied frame with straight colour (frames the decoder made
  /// are straight already; this keeps the compositor correct for any).
  private static func straightened(_ frame: PixelBuffer) -> PixelBuffer {
    PixelBuffer(width: frame.width, height: frame.height, straightRGBA: frame.straightRGBA())
  }

  /// Porter-Duff "over" on straight pixels, as the APNG specification
  /// writes it: `a = sa + da (1 - sa)`, `c = (sc sa + dc da (1 - sa)) / a`,
  /// each rounded once from exact integers.
  private static func blendOver(_ s: UnsafePointer<UInt8>, onto d: UnsafeMutablePointer<UInt8>, pixels: Int) {
    for i in stride(from: 0, to: pixels * 4, by: 4) {
      // Whole pixels as words: opaque and empty ones, the common case, take
      // one load and at most one store.
      let word = UnsafeRawPointer(s).loadUnaligned(fromByteOffset: i, as: UInt32.self)
      let sa = UInt32(littleEndian: word) >> 24
      if sa == 0 { continue }
      let da = UInt32(d[i + 3])
      if sa == 255 || da == 0 {
        UnsafeMutableRawPointer(d).storeBytes(of: word, toByteOffset: i, as: UInt32.self)
      } else {
        // Weights in units of 1/65025 of full alpha.
        let fs = sa * 255
        let fd = da * (255 - sa)
        let sum = fs + fd
        for c in 0..<3 {
          d[i + c] = UInt8((UInt32(s[i + c]) * fs + UInt32(d[i + c]) * fd + sum / 2) / sum)
        }
        d[i + 3] = UInt8((sum + 127) / 255)
      }
    }
  }

  private func copyRectangle(of control: APNGFrameControl) -> [UInt8] {
    let rowBytes = control.width * PixelBuffer.bytesPerPixel
    var saved = [UInt8]()
    saved.reserveCapacity(rowBytes * control.height)
    for row in 0..<control.height {
      let start = (control.y + row) * canvasRowBytes + control.x * PixelBuffer.bytesPerPixel
      saved += canvas[start..<(start + rowBytes)]
    }
    return saved
  }

  private mutating func restoreRectangle(of control: APNGFrameControl, from saved: [UInt8]) {
    let rowBytes = control.width * PixelBuffer.bytesPerPixel
    for row in 0..<control.height {
      let start = (control.y + row) * canvasRowBytes + control.x * PixelBuffer.bytesPerPixel
      canvas.replaceSubrange(start..<(start + rowBytes), with: saved[(row * rowBytes)..<((row + 1) * rowBytes)])
    }
  }

  private mutating func clearRectangle(of control: APNGFrameControl) {
    let rowBytes = control.width * PixelBuffer.bytesPerPixel
    let canvasRowBytes = canvasRowBytes
    canvas.withUnsafeMutableBytes { dst in
      for row in 0..<control.height {
        let start = (control.y + row) * canvasRowBytes + control.x * PixelBuffer.bytesPerPixel
        UnsafeMutableRawBufferPointer(rebasing: dst[start..<(start + rowBytes)]).initializeMemory(
          as: UInt8.self, repeating: 0)
      }
    }
  }

  private func isCanvasOpaque() -> Bool {
    canvas.withUnsafeBytes { PixelBuffer.allOpaque($0) }
  }
}
