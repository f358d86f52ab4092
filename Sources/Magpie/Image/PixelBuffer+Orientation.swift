extension PixelBuffer {
  /// The pixels turned and mirrored as `orientation` says, so that stored
  /// pixels tagged with it come out upright.
  public func applying(_ orientation: ImageOrientation) -> PixelBuffer {
    if orientation == .up { return self }
    let outSize = orientation.displayedSize(of: size)
    let w = width
    let h = height
    let srcStride = bytesPerRow / PixelBuffer.bytesPerPixel
    // Bytes per row are a multiple of 4 for every buffer Magpie makes; fall
    // back to a packed copy when a caller's stride is not.
    guard bytesPerRow % PixelBuffer.bytesPerPixel == 0 else {
      return PixelBuffer(
        width: w, height: h, bytesPerRow: w * 4, bytes: packedBytes(), alpha: alphaRepresentation, isOpaque: isOpaque
      ).applying(orientation)
    }
    let result = PixelBuffer(uninitializedWidth: outSize.width, height: outSize.height, alpha: alphaRepresentation) {
      out in
      let dst = out.bindMemory(to: UInt32.self)
      withUnsafeBytes { raw in
        let src = raw.bindMemory(to: UInt32.self)
        for oy in 0..<outSize.height {
          let row = oy * outSize.width
          for ox in 0..<outSize.width {
            let (sx, sy): (Int, Int)
            switch orientation {
            case .up: (sx, sy) = (ox, oy)
            case .upMirrored: (sx, sy) = (w - 1 - ox, oy)
            case .down: (sx, sy) = (w - 1 - ox, h - 1 - oy)
            case .downMirrored: (sx, sy) = (ox, h - 1 - oy)
            case .leftMirrored: (sx, sy) = (oy, ox)
            case .right: (sx, sy) = (oy, h - 1 - ox)
            case .rightMirrored: (sx, sy) = (w - 1 - oy, h - 1 - ox)
            case .left: (sx, sy) = (w - 1 - oy, ox)
            }
            dst[row + ox] = src[sy * srcStride + sx]
          }
        }
      }
      return isOpaque
    }
    return result
  }

  /// The visible bytes with no row padding.
  func packedBytes() -> [UInt8] {
    let rowBytes = width * PixelBuffer.bytesPerPixel
    if rowBytes == bytesPerRow {
      return bytes.count == rowBytes * height ? bytes : Array(bytes.prefix(rowBytes * height))
    }
    var out = [UInt8]()
    out.reserveCapacity(rowBytes * height)
    for y in 0..<height {
      out.append(contentsOf: bytes[(y * bytesPerRow)..<(y * bytesPerRow + rowBytes)])
    }
    return out
  }
}
