import CLCMS2
import CMagpieCodecs
import Foundation

/// Reads an ICC profile with lcms2 and decides what converting its pixels
/// to sRGB takes: nothing (the profile is sRGB, or one that maps every
/// stored value to itself), a ``ColorTransform``, or nothing because the
/// profile cannot be used (it does not parse, or describes other pixels).
package enum ColorTransformBuilder {
  /// What a profile needs.
  package enum Outcome: Sendable {
    /// The pixels are sRGB already.
    case identity
    /// Convert through this transform.
    case transform(ColorTransform)
    /// The profile cannot convert these pixels; why, in words.
    case unusable(String)
  }

  /// The most bytes a profile may have: real ones are under a megabyte
  /// (Apple's and camera profiles a few kilobytes).
  static let maxProfileByteCount = 4 << 20

  /// sRGB as lcms2 builds it: the colorants and the curve every
  /// matrix-shaper conversion ends in.
  private static let sRGB = SRGBTarget()

  /// What converting `input` pixels encoded in `iccData` to sRGB takes.
  package static func outcome(for iccData: Data, input: ColorTransform.Input) -> Outcome {
    guard iccData.count >= 132, iccData.count <= maxProfileByteCount else {
      return .unusable("an ICC profile of \(iccData.count) bytes is not a usable size")
    }
    let opened: cmsHPROFILE? = iccData.withUnsafeBytes {
      cmsOpenProfileFromMemTHR(sRGB.context, $0.baseAddress, UInt32($0.count))
    }
    guard let profile = opened else { return .unusable("lcms2 cannot read the ICC profile") }
    defer { cmsCloseProfile(profile) }
    let space = cmsGetColorSpace(profile)
    switch (input, space) {
    case (.rgba, cmsSigRgbData), (.rgba, cmsSigGrayData):
      // A profile with an A2B0 table is converted through it (lcms2 prefers
      // the table to the matrix for the perceptual intent), so only pure
      // matrix-shapers take the fast path.
      if cmsIsMatrixShaper(profile) != 0, cmsIsTag(profile, cmsSigAToB0Tag) == 0,
        let shaper = matrixShaper(profile, gray: space == cmsSigGrayData)
      {
        return isIdentity(shaper) ? .identity : .transform(ColorTransform(matrixShaper: shaper))
      }
      guard space == cmsSigRgbData else { return .unusable("a gray ICC profile without a gray curve") }
      return lcmsTransform(profile, input: input, format: MP_LCMS_RGBA_8, flags: cmsFLAGS_COPY_ALPHA)
    case (.invertedCMYK, cmsSigCmykData):
      return lcmsTransform(profile, input: input, format: MP_LCMS_CMYK_8_INVERTED, flags: 0)
    default:
      return .unusable("the ICC profile's colour space does not match the image's")
    }
  }

  private static func lcmsTransform(
    _ profile: cmsHPROFILE, input: ColorTransform.Input, format: cmsUInt32Number, flags: Int32
  ) -> Outcome {
    let built = cmsCreateTransformTHR(
      sRGB.context, profile, format, sRGB.profile, MP_LCMS_RGBA_8, UInt32(INTENT_PERCEPTUAL),
      UInt32(cmsFLAGS_NOCACHE) | UInt32(flags))
    guard let built else { return .unusable("lcms2 cannot build a transform from the ICC profile") }
    return .transform(ColorTransform(lcms: built, input: input))
  }

  /// The tables of a matrix-shaper (or gray) profile's conversion to sRGB,
  /// or `nil` when its tags do not read.
  private static func matrixShaper(_ profile: cmsHPROFILE, gray: Bool) -> mp_matrix_shaper? {
    let curveTags =
      gray
      ? [cmsSigGrayTRCTag, cmsSigGrayTRCTag, cmsSigGrayTRCTag]
      : [
        cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag,
      ]
    var shaper = mp_matrix_shaper()
    for (channel, tag) in curveTags.enumerated() {
      guard let curve = cmsReadTag(profile, tag) else { return nil }
      let table = (0..<256).map { code -> UInt16 in
        let linear = cmsEvalToneCurveFloat(OpaquePointer(curve), Float(code) / 255)
        return UInt16((min(max(Double(linear), 0), 1) * 16383).rounded())
      }
      withUnsafeMutableBytes(of: &shaper.linear) { raw in
        let rows = raw.bindMemory(to: UInt16.self)
        for code in 0..<256 { rows[channel * 256 + code] = table[code] }
      }
    }
    let source: SRGBTarget.Matrix
    if gray {
      // Gray is the white point's chromaticity: equal sRGB channels.
      source = sRGB.colorants
    } else {
      guard let colorants = SRGBTarget.colorants(of: profile) else { return nil }
      source = colorants
    }
    let matrix = SRGBTarget.multiply(sRGB.inverse, source)
    // Colorants no display has (degenerate, huge or NaN, as a hostile
    // profile declares) give cells that trap converting to 2.14 fixed point
    // and would overflow the C tables; real profiles stay within ±4. Such a
    // profile goes through lcms2's general path instead.
    guard matrix.allSatisfy({ $0.allSatisfy { $0.isFinite && abs($0) <= 16 } }) else { return nil }
    withUnsafeMutableBytes(of: &shaper.matrix) { raw in
      let cells = raw.bindMemory(to: Int32.self)
      for row in 0..<3 {
        for column in 0..<3 { cells[row * 3 + column] = Int32((matrix[row][column] * 16384).rounded()) }
      }
    }
    // sRGB lives as long as the process: every shaper shares its table.
    shaper.encode = UnsafePointer(sRGB.encode)
    return shaper
  }

  /// Whether `shaper` gives back every stored value: an identity matrix
  /// and curves that sRGB's encoding undoes exactly, level for level.
  private static func isIdentity(_ shaper: mp_matrix_shaper) -> Bool {
    var shaper = shaper
    return withUnsafeBytes(of: &shaper.matrix) { raw in
      let cells = raw.bindMemory(to: Int32.self)
      for row in 0..<3 {
        for column in 0..<3 where abs(Int(cells[row * 3 + column]) - (row == column ? 16384 : 0)) > 16 {
          return false
        }
      }
      return true
    }
      && withUnsafeBytes(of: &shaper.linear) { raw in
        let linear = raw.bindMemory(to: UInt16.self)
        return (0..<768).allSatisfy { Int(sRGB.encode[Int(linear[$0])]) == $0 % 256 }
      }
  }
}
