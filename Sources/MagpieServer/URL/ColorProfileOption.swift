/// Which colour profile a result is in (`cc:` in a transform URL).
public enum ColorProfileOption: String, Sendable, Hashable, CaseIterable {
  /// `srgb`: converted to sRGB, untagged, as browsers assume. The default.
  case sRGB = "srgb"
  /// `keep`: the source's profile kept and embedded.
  case keep
  /// `srgb-tagged`: converted to sRGB and tagged with an sRGB profile, for
  /// readers that treat untagged images otherwise.
  case tagged = "srgb-tagged"
}
