/// Turns straight RGBA pixels into palette indices: the nearest palette
/// colour (squared RGB distance), optionally with Floyd-Steinberg error
/// diffusion in serpentine order; pixels with alpha below 128 get the
/// transparent index and neither take nor pass on error.
///
/// Nearest colours are cached per 6-bit-per-channel cell (262,144 cells),
/// so each cell is searched once; the search uses the cell's centre, which
/// is within 2 levels per channel of the pixel.
struct GIFPaletteMapper {
  private let palette: [SIMD3<Int32>]
  /// Nearest index + 1 per cell; 0 while unknown.
  private var cache: [UInt16]

  /// A mapper to `palette` (at most 256 colours).
  init(palette: [SIMD3<Int32>]) {
    self.palette = palette
    cache = [UInt16](repeating: 0, count: 1 << 18)
  }

  /// Maps `pixels` (`width` by `height`, straight RGBA words in memory
  /// order) to indices; `transparentIndex` is used for alpha below 128.
  mutating func map(
    _ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, transparentIndex: UInt8, dithers: Bool
  ) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
      if dithers {
        mapDithered(pixels, width: width, height: height, transparentIndex: transparentIndex, into: out)
      } else {
        for i in 0..<(width * height) {
          let value = UInt32(littleEndian: pixels[i])
          if value >> 24 < 128 {
            out[i] = transparentIndex
          } else {
            out[i] = nearest(Int32(value & 0xFF), Int32(value >> 8 & 0xFF), Int32(value >> 16 & 0xFF))
          }
        }
      }
      initialized = width * height
    }
  }

  private mutating func mapDithered(
    _ pixels: UnsafeBufferPointer<UInt32>, width: Int, height: Int, transparentIndex: UInt8,
    into out: UnsafeMutableBufferPointer<UInt8>
  ) {
    // Two error rows of 3 channels for columns -1...width, in 1/16 units.
    let rowLength = (width + 2) * 3
    let errors = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * rowLength)
    defer { errors.deallocate() }
    errors.initialize(repeating: 0, count: 2 * rowLength)
    var current = errors
    var next = errors + rowLength
    for y in 0..<height {
      let leftToRight = y % 2 == 0
      let step = leftToRight ? 1 : -1
      var x = leftToRight ? 0 : width - 1
      for _ in 0..<width {
        let i = y * width + x
        let value = UInt32(littleEndian: pixels[i])
        let e = (x + 1) * 3
        if value >> 24 < 128 {
          out[i] = transparentIndex
        } else {
          let r = clamp(Int32(value & 0xFF) + (current[e] + 8) >> 4)
          let g = clamp(Int32(value >> 8 & 0xFF) + (current[e + 1] + 8) >> 4)
          let b = clamp(Int32(value >> 16 & 0xFF) + (current[e + 2] + 8) >> 4)
          let index = nearest(r, g, b)
          out[i] = index
          let chosen = palette[Int(index)]
          diffuse(r - chosen[0], at: e, channel: 0, step: step, current: current, next: next)
          diffuse(g - chosen[1], at: e, channel: 1, step: step, current: current, next: next)
          diffuse(b - chosen[2], at: e, channel: 2, step: step, current: current, next: next)
        }
        x += step
      }
      swap(&current, &next)
      next.update(repeating: 0, count: rowLength)
    }
  }

  /// Floyd-Steinberg weights: 7/16 ahead, 3/16 behind below, 5/16 below,
  /// 1/16 ahead below.
  @inline(__always)
  private func diffuse(
    _ error: Int32, at e: Int, channel: Int, step: Int, current: UnsafeMutablePointer<Int32>,
    next: UnsafeMutablePointer<Int32>
  ) {
    let ahead = e + 3 * step + channel
    let behind = e - 3 * step + channel
    current[ahead] += error * 7
    next[behind] += error * 3
    next[e + channel] += error * 5
    next[ahead] += error
  }

  @inline(__always)
  private func clamp(_ value: Int32) -> Int32 { min(255, max(0, value)) }

  /// The palette index nearest to (r, g, b), through the cell cache.
  @inline(__always)
  private mutating func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
    let key = Int(r >> 2) << 12 | Int(g >> 2) << 6 | Int(b >> 2)
    let cached = cache[key]
    if cached != 0 { return UInt8(cached - 1) }
    let centre = SIMD3<Int32>((r & ~3) | 2, (g & ~3) | 2, (b & ~3) | 2)
    var best = 0
    var bestDistance = Int32.max
    for (j, color) in palette.enumerated() {
      let d = centre &- color
      let distance = d[0] &* d[0] &+ d[1] &* d[1] &+ d[2] &* d[2]
      if distance < bestDistance {
        bestDistance = distance
        best = j
      }
    }
    cache[key] = UInt16(best + 1)
    return UInt8(best)
  }
}
