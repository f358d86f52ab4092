import CLCMS2
import Foundation

extension ColorProfile {
  /// An RGB profile lcms2 writes for a white point and primaries (`values`:
  /// white x, y, then red, green and blue x, y, as a PNG cHRM chunk has
  /// them) and a pure power curve of exponent `gamma` (2.2 for a gAMA of
  /// 45455); `nil` when lcms2 rejects them (degenerate primaries).
  static func fromChromaticities(_ values: [Double], gamma: Double) -> ColorProfile? {
    guard values.count == 8, values.allSatisfy({ $0 > 0 && $0 < 1 }), gamma > 0.1, gamma < 10 else { return nil }
    var white = cmsCIExyY(x: values[0], y: values[1], Y: 1)
    var primaries = cmsCIExyYTRIPLE(
      Red: cmsCIExyY(x: values[2], y: values[3], Y: 1), Green: cmsCIExyY(x: values[4], y: values[5], Y: 1),
      Blue: cmsCIExyY(x: values[6], y: values[7], Y: 1))
    guard let curve = cmsBuildGamma(nil, gamma) else { return nil }
    defer { cmsFreeToneCurve(curve) }
    var curves: [OpaquePointer?] = [curve, curve, curve]
    guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return nil }
    defer { cmsCloseProfile(profile) }
    var size: UInt32 = 0
    guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
    return ColorProfile(iccData: Data(bytes.prefix(Int(size))))
  }
}
