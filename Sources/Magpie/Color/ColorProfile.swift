import Foundation

/// An ICC colour profile an image's pixels are encoded in: the bytes a file
/// embeds (JPEG APP2, PNG iCCP, WebP ICCP, AVIF/HEIC `colr`, JPEG XL's
/// colour encoding), or one built from PNG `cHRM`/`gAMA`.
///
/// Decoders attach it to ``Image/colorProfile``; with
/// ``DecodeOptions/colorManagement`` at its default
/// (``ColorManagement/convertToSRGB``) the registry converts the pixels to
/// sRGB and drops it, so only images decoded with
/// ``ColorManagement/preserve`` still carry one.
public struct ColorProfile: Sendable, Hashable {
  /// The profile's ICC bytes.
  public let iccData: Data

  /// A profile of the ICC bytes `iccData`, not checked here. One that
  /// lcms2 cannot read, or that describes other pixels (a CMYK profile on
  /// an RGB image), converts nothing: the image decodes with its stored
  /// values and without a profile, as browsers show it, rather than
  /// failing over colour that is only a refinement.
  public init(iccData: Data) {
    self.iccData = iccData
  }
}
