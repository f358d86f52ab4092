/// Plays APNG frames onto a canvas as the APNG specification says, on
/// premultiplied pixels, and hands out the canvas after each frame.
struct APNGCompositor {
  /// The canvas size, the IHDR's.
  let size: PixelSize
  /// Premultiplied RGBA, `size.width * 4` bytes a row; transparent black at
  /// the start, as the specification requires.
  private var canvas: [UInt8]
  private var isFirstFrame = true

  /// A transparent canvas of `size`.
  init(size: PixelSize) {
    self.size = size
    canvas = [UInt8](repeating: 0, count: size.pixelCount * PixelBuffer.bytesPerPixel)
  }

  /// Draws `frame` (premultiplied, the size of `control`'s rectangle) as
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
    draw(frame, control: control)
    let shown = PixelBuffer(
      width: size.width, height: size.height, bytesPerRow: size.width * PixelBuffer.bytesPerPixel,
      premultipliedRGBA: canvas, isOpaque: isCanvasOpaque())
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
    frame.withUnsafeBytes { src in
      canvas.withUnsafeMutableBytes { dst in
        for row in 0..<control.height {
          let s = src.baseAddress! + row * frame.bytesPerRow
          let d = dst.baseAddress! + (control.y + row) * canvasRowBytes + control.x * PixelBuffer.bytesPerPixel
          switch control.blendOp {
          case .source:
            d.copyMemory(from: s, byteCount: rowBytes)
          case .over:
            Self.blendOver(
              s.assumingMemoryBound(to: UInt8.self), onto: d.assumingMemoryBound(to: UInt8.self),
              pixels: control.width)
          }
        }
      }
    }
  }

  /// Porter-Duff "over" on premultiplied pixels: `d = s + d * (255 - sa) / 255`.
  private static func blendOver(_ s: UnsafePointer<UInt8>, onto d: UnsafeMutablePointer<UInt8>, pixels: Int) {
    for i in stride(from: 0, to: pixels * 4, by: 4) {
      let alpha = UInt32(s[i + 3])
      if alpha == 255 {
        d[i] = s[i]
        d[i + 1] = s[i + 1]
        d[i + 2] = s[i + 2]
        d[i + 3] = 255
      } else if alpha != 0 {
        let keep = 255 - alpha
        for c in 0..<4 {
          d[i + c] = UInt8(min(255, UInt32(s[i + c]) + UInt32(PixelBuffer.multiplyDivide255(UInt32(d[i + c]), keep))))
        }
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
    canvas.withUnsafeBytes { p in
      for i in stride(from: 3, to: p.count, by: 4) where p[i] != 255 { return false }
      return true
    }
  }
}
