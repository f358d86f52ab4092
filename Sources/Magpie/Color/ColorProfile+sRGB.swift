import CLCMS2
import Foundation

extension ColorProfile {
  /// sRGB (IEC 61966-2.1) as lcms2 writes it: what
  /// ``ProfileEmbedding/sRGB`` embeds.
  public static let sRGB: ColorProfile = {
    let profile = cmsCreate_sRGBProfile()
    defer { if let profile { cmsCloseProfile(profile) } }
    var size: cmsUInt32Number = 0
    guard let profile, cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else {
      preconditionFailure("lcms2 could not write its sRGB profile")
    }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else {
      preconditionFailure("lcms2 could not write its sRGB profile")
    }
    return ColorProfile(iccData: Data(bytes.prefix(Int(size))))
  }()
}
