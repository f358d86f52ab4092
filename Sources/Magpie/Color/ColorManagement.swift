/// What decoding does with an image's colour profile.
public enum ColorManagement: Sendable, Hashable {
  /// Convert tagged pixels to sRGB (the default): a Display P3 or Adobe RGB
  /// photo shows as its author saw it. Untagged and sRGB-tagged images are
  /// left as decoded, at no cost.
  case convertToSRGB
  /// Keep the pixels' values as stored and carry the profile in
  /// ``Image/colorProfile``.
  case preserve
}
