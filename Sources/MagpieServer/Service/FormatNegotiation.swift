import Magpie

/// Picks the output format when the URL names none: the best of AVIF,
/// WebP and the source's own format that the client's `Accept` lists
/// (each of AVIF and WebP switchable), animations kept animated.
public struct FormatNegotiation: Sendable, Hashable {
  /// Whether AVIF is offered (when an AVIF encoder is registered).
  public var offersAVIF: Bool
  /// Whether WebP is offered.
  public var offersWebP: Bool

  /// Offers both by default.
  public init(offersAVIF: Bool = true, offersWebP: Bool = true) {
    self.offersAVIF = offersAVIF
    self.offersWebP = offersWebP
  }

  /// What a client accepts, as far as the choice goes (and only what this
  /// server offers): part of a negotiated response's cache key.
  public struct Preference: Sendable, Hashable {
    /// The client reads AVIF and it is offered.
    public var avif: Bool
    /// The client reads WebP and it is offered.
    public var webp: Bool

    /// A preference for these formats.
    public init(avif: Bool, webp: Bool) {
      self.avif = avif
      self.webp = webp
    }

    /// A short name for cache keys: `avif+webp`, `avif`, `webp` or `source`.
    public var key: String {
      [avif ? "avif" : nil, webp ? "webp" : nil].compactMap { $0 }.joined(separator: "+").nonEmpty ?? "source"
    }
  }

  /// The preference an `Accept` header gives: a type counts when it is
  /// named with a quality above 0 (`image/*` and `*/*` name neither, so
  /// they get the source's format).
  public func preference(accept: String?) -> Preference {
    var types: Set<String> = []
    for range in (accept ?? "").split(separator: ",") {
      let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      guard let type = parts.first else { continue }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      if quality > 0 { types.insert(type) }
    }
    return Preference(
      avif: offersAVIF && types.contains("image/avif") && CoderRegistry.shared.encoder(for: .avif) != nil,
      webp: offersWebP && types.contains("image/webp"))
  }

  /// The output format for `preference` and a source in `source` format.
  public func format(for preference: Preference, source: ImageFormat, isAnimated: Bool, hasAlpha: Bool) -> ImageFormat {
    if isAnimated {
      // Animated AVIF is slow to encode and unevenly supported; WebP keeps
      // the animation wherever the client reads WebP, GIF elsewhere.
      return preference.webp ? .webp : .gif
    }
    if preference.avif { return .avif }
    if preference.webp { return .webp }
    switch source {
    case .jpeg, .png, .gif: return source
    case .apng: return .png
    default: return hasAlpha ? .png : .jpeg
    }
  }
}

extension String {
  /// `nil` for the empty string.
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
