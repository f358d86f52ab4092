/// The filter a ``Resampler`` weighs source pixels with.
public enum ResamplingKernel: String, Sendable, CaseIterable {
  /// Lanczos with three lobes: the sharpest of the three, with a little
  /// ringing at hard edges. The default, as in Pillow, libvips and ImageMagick
  /// for photographs.
  case lanczos3
  /// Catmull-Rom cubic (Mitchell-Netravali with B = 0, C = 0.5): nearly as
  /// sharp, less ringing.
  case catmullRom
  /// Bilinear (a triangle filter): soft, fastest.
  case bilinear

  /// How far the kernel reaches, in source pixels at scale 1.
  public var support: Double {
    switch self {
    case .lanczos3: 3
    case .catmullRom: 2
    case .bilinear: 1
    }
  }

  /// The kernel's weight at distance `x` (in source pixels at scale 1).
  public func weight(_ x: Double) -> Double {
    let x = abs(x)
    switch self {
    case .lanczos3:
      if x >= 3 { return 0 }
      return sinc(x) * sinc(x / 3)
    case .catmullRom:
      if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
      if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
      return 0
    case .bilinear:
      return x < 1 ? 1 - x : 0
    }
  }

  /// Samples per source pixel in ``table``.
  static let tableResolution = 1024

  /// Lanczos-3 sampled every 1/1024 pixel over its support: two `sin`
  /// calls a tap are a fifth of the cost of resampling a thumbnail, and
  /// interpolating this table is off by under 2 · 10^-6, far below what
  /// 14-bit weights hold.
  private static let lanczosTable: [Double] = (0...(3 * tableResolution + 1)).map {
    ResamplingKernel.lanczos3.weight(Double($0) / Double(tableResolution))
  }

  /// ``weight(_:)``, from a table for Lanczos-3 (the cubic and the triangle
  /// are cheap to compute directly).
  @inline(__always)
  func fastWeight(_ x: Double) -> Double {
    guard self == .lanczos3 else { return weight(x) }
    let position = abs(x) * Double(Self.tableResolution)
    let index = Int(position)
    if index >= 3 * Self.tableResolution { return 0 }
    let fraction = position - Double(index)
    return Self.lanczosTable.withUnsafeBufferPointer { t in t[index] + (t[index + 1] - t[index]) * fraction }
  }

  private func sinc(_ x: Double) -> Double {
    if x == 0 { return 1 }
    let px = Double.pi * x
    return sin(px) / px
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
