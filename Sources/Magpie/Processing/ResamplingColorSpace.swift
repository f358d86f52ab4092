/// The values a ``Resampler`` averages.
public enum ResamplingColorSpace: String, Sendable, CaseIterable {
  /// The stored, gamma-encoded sRGB values, as Pillow, libvips, browsers and
  /// most image tools resample. The default: thumbnails then match what
  /// every other tool makes from the same photo, the work stays in 8-bit
  /// fixed point (no lookup tables, no precision lost converting to and from
  /// linear light), and it is two to three times faster.
  case sRGB
  /// Linear light: values are decoded from sRGB, averaged as light adds up,
  /// and encoded again. Physically right: fine high-contrast detail (text,
  /// thin lines, star fields) keeps its brightness instead of darkening, at
  /// the cost of `Float` work.
  case linear
}
