extension PixelBuffer {
  /// The pixels turned and mirrored as `orientation` says, so that stored
  /// pixels tagged with it come out upright.
  public func applying(_ orientation: ImageOrientation) -> PixelBuffer {
    if orientation == .up { return self }
    let outSize = orientation.displayedSize(of: size)
    // Bytes per row are a multiple of 4 for every buffer Magpie makes; fall
    // back to a packed copy when a caller's stride is not.
    guard bytesPerRow % PixelBuffer.bytesPerPixel == 0 else {
      return PixelBuffer(
        width: width, height: height, bytesPerRow: width * 4, bytes: packedBytes(), alpha: alphaRepresentation,
        isOpaque: isOpaque
      ).applying(orientation)
    }
    let result = PixelBuffer(uninitializedWidth: outSize.width, height: outSize.height, alpha: alphaRepresentation) {
      out in
      withUnsafeBytes { raw in
        Self.turn(raw.baseAddress!, size: size, stride: bytesPerRow, orientation, into: out.baseAddress!)
      }
      return isOpaque
    }
    return result
  }

  /// Copies the `size` pixels at `source` (rows `stride` bytes apart, a
  /// multiple of 4) to `destination`, turned and mirrored as `orientation`
  /// says, in packed rows of the displayed size.
  static func turn(
    _ source: UnsafeRawPointer, size: PixelSize, stride: Int, _ orientation: ImageOrientation,
    into destination: UnsafeMutableRawPointer
  ) {
    let (w, h) = (size.width, size.height)
    let srcStride = stride / PixelBuffer.bytesPerPixel
    let outSize = orientation.displayedSize(of: size)
    let src = source.assumingMemoryBound(to: UInt32.self)
    let dst = destination.assumingMemoryBound(to: UInt32.self)
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
