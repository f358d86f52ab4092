import Foundation

extension PixelBuffer {
  /// The `width` × `height` pixels whose top-left corner is (`x`, `y`);
  /// the rectangle must lie inside the buffer.
  package func cropped(x: Int, y: Int, width outW: Int, height outH: Int) -> PixelBuffer {
    precondition(x >= 0 && y >= 0 && outW > 0 && outH > 0 && x + outW <= width && y + outH <= height)
    if x == 0 && y == 0 && outW == width && outH == height { return self }
    let stride = bytesPerRow
    return PixelBuffer(uninitializedWidth: outW, height: outH, alpha: alphaRepresentation) { out in
      withUnsafeBytes { src in
        for row in 0..<outH {
          (out.baseAddress! + row * outW * 4).copyMemory(
            from: src.baseAddress! + (y + row) * stride + x * 4, byteCount: outW * 4)
        }
      }
      return isOpaque
    }
  }

  /// The pixels turned clockwise by `quarterTurns` quarter turns (1: 90°,
  /// 2: 180°, 3: 270°).
  package func rotated(quarterTurns: Int) -> PixelBuffer {
    let turns = ((quarterTurns % 4) + 4) % 4
    switch turns {
    case 0: return self
    case 2: return mirrored(horizontally: true, vertically: true)
    default: return transposed(clockwise: turns == 1)
    }
  }

  /// Mirrored left to right (`horizontally`) or top to bottom.
  func flipped(horizontally: Bool) -> PixelBuffer {
    mirrored(horizontally: horizontally, vertically: !horizontally)
  }

  /// Mirrored along either axis or both (both is a half turn).
  private func mirrored(horizontally: Bool, vertically: Bool) -> PixelBuffer {
    let (w, h, stride) = (width, height, bytesPerRow)
    return PixelBuffer(uninitializedWidth: w, height: h, alpha: alphaRepresentation) { out in
      withUnsafeBytes { src in
        let dst = out.baseAddress!
        if !horizontally {
          for row in 0..<h {
            let from = vertically ? h - 1 - row : row
            (dst + row * w * 4).copyMemory(from: src.baseAddress! + from * stride, byteCount: w * 4)
          }
          return
        }
        RowParallelism.run(h, costPerRow: w) { rows in
          for row in rows {
            let s = src.baseAddress! + (vertically ? h - 1 - row : row) * stride
            let d = dst + row * w * 4
            var x = 0
            // Four pixels at a time, reversed in the register.
            while x &+ 4 <= w {
              let v = s.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
              d.storeBytes(of: SIMD4(v[3], v[2], v[1], v[0]), toByteOffset: (w &- x &- 4) &* 4, as: SIMD4<UInt32>.self)
              x &+= 4
            }
            while x < w {
              d.storeBytes(
                of: s.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self), toByteOffset: (w &- 1 &- x) &* 4,
                as: UInt32.self)
              x &+= 1
            }
          }
        }
      }
      return isOpaque
    }
  }

  /// A quarter turn, clockwise or counter-clockwise, copied in square tiles
  /// so that reads and writes both stay in cache.
  private func transposed(clockwise: Bool) -> PixelBuffer {
    let (w, h) = (width, height)
    let srcStride = bytesPerRow
    let tile = 32
    return PixelBuffer(uninitializedWidth: h, height: w, alpha: alphaRepresentation) { out in
      withUnsafeBytes { src in
        let s = src.baseAddress!
        let d = out.baseAddress!
        // Output rows are source columns; split them across cores in tiles.
        let tileRows = (w + tile - 1) / tile
        RowParallelism.run(tileRows, costPerRow: tile * h) { tiles in
          for tileRow in tiles {
            let oy0 = tileRow * tile
            let oy1 = min(oy0 + tile, w)
            var ox = 0
            while ox < h {
              let ox1 = min(ox + tile, h)
              for oy in oy0..<oy1 {
                let outRow = d + oy &* h &* 4
                // Output (ox, oy) comes from source column sx, row sy.
                for x in ox..<ox1 {
                  let (sx, sy) = clockwise ? (oy, h &- 1 &- x) : (w &- 1 &- oy, x)
                  outRow.storeBytes(
                    of: s.loadUnaligned(fromByteOffset: sy &* srcStride &+ sx &* 4, as: UInt32.self),
                    toByteOffset: x &* 4, as: UInt32.self)
                }
              }
              ox = ox1
            }
          }
        }
      }
      return isOpaque
    }
  }
}
