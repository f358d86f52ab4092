import CLCMS2
import CMagpieCodecs

/// sRGB as lcms2 builds it (`cmsCreate_sRGBProfile`): the profile lcms2
/// transforms convert into, its colorant matrix (linear sRGB to D50 XYZ)
/// and its inverse, and the table that encodes linear light as 8-bit sRGB.
///
/// `@unchecked Sendable`: built once, never changed; lcms2 profiles may be
/// read from many threads.
final class SRGBTarget: @unchecked Sendable {
  /// A 3x3 matrix, rows of columns.
  typealias Matrix = [[Double]]

  /// The lcms2 context every profile from a file is read in: its
  /// allocations are bounded (``mp_lcms_bounded_context``).
  let context: cmsContext?
  /// lcms2's sRGB profile.
  let profile: cmsHPROFILE
  /// Linear sRGB to D50 XYZ.
  let colorants: Matrix
  /// D50 XYZ to linear sRGB.
  let inverse: Matrix
  /// Linear light in 1/16383 steps to 8-bit sRGB.
  let encode: UnsafeMutablePointer<UInt8>

  init() {
    context = mp_lcms_bounded_context().map { OpaquePointer($0) }
    profile = cmsCreate_sRGBProfileTHR(context)
    colorants = Self.colorants(of: profile) ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    inverse = Self.inverted(colorants)
    let size = Int(MP_COLOR_OUTPUT_TABLE_SIZE)
    encode = .allocate(capacity: size)
    let curve = OpaquePointer(cmsReadTag(profile, cmsSigRedTRCTag))
    let reversed = curve.flatMap { cmsReverseToneCurve($0) }
    defer { if let reversed { cmsFreeToneCurve(reversed) } }
    for step in 0..<size {
      let linear = Float(step) / Float(size - 1)
      let value = reversed.map { Double(cmsEvalToneCurveFloat($0, linear)) } ?? Double(linear)
      encode[step] = UInt8((min(max(value, 0), 1) * 255).rounded())
    }
  }

  deinit {
    encode.deallocate()
    cmsCloseProfile(profile)
  }

  /// The red, green and blue colorants (D50 XYZ) of a matrix-shaper
  /// profile as the columns of a matrix, or `nil` when a tag is missing.
  static func colorants(of profile: cmsHPROFILE) -> Matrix? {
    var columns: [cmsCIEXYZ] = []
    for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
      guard let raw = cmsReadTag(profile, tag) else { return nil }
      columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
    }
    return [columns.map(\.X), columns.map(\.Y), columns.map(\.Z)]
  }

  /// `a` times `b`.
  static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
    (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
  }

  /// The inverse of `m` (the identity when `m` is singular).
  static func inverted(_ m: Matrix) -> Matrix {
    let det =
      m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
      + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    guard abs(det) > 1e-12 else { return [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }
    let cofactor: (Int, Int) -> Double = { r, c in
      let rows = (0..<3).filter { $0 != r }
      let cols = (0..<3).filter { $0 != c }
      let minor = m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
      return (r + c) % 2 == 0 ? minor : -minor
    }
    return (0..<3).map { i in (0..<3).map { j in cofactor(j, i) / det } }
  }
}
