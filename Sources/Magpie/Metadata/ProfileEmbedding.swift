/// Which colour profile an encoder embeds.
public enum ProfileEmbedding: String, Sendable, Hashable, CaseIterable {
  /// None: the file is untagged, which readers take as sRGB.
  case none
  /// The profile the pixels are in (``Image/colorProfile``, kept by a
  /// ``ColorManagement/preserve`` decode); nothing for sRGB pixels, which
  /// need no tag. The default.
  case original
  /// An sRGB profile, for readers that treat untagged images otherwise.
  /// Pixels in another profile are converted to sRGB first.
  case sRGB
}
