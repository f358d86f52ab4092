/// How a built transform path writes its source URL.
public enum TransformSourceEncoding: Sendable, Hashable, CaseIterable {
  /// `plain/` and the URL percent-encoded (every byte but letters, digits
  /// and `-._~`), then `@EXT`.
  case plain
  /// The URL in URL-safe base64 without padding, then `.EXT`.
  case base64
}
