import Magpie

extension TransformOptions {
  /// The options as a cache key and ETag input: ``canonicalPathComponents``
  /// joined by `/`, empty when every field is at its default. Two URLs
  /// that reach the same value by different spellings (long or short
  /// names, presets, order, overridden options) give the same string.
  public var canonicalString: String { canonicalPathComponents.joined(separator: "/") }

  /// One option path component per field that is not at its default, in
  /// a fixed order, with short names and canonical values (`jpg`, `1`/`0`,
  /// whole numbers without a fraction). Parsed by a server without a
  /// `default` preset they give back these options exactly; formats other
  /// than the five a URL can name are written by their raw name and do
  /// not parse.
  public var canonicalPathComponents: [String] {
    let defaults = TransformOptions()
    var parts: [String] = []
    func add(_ name: String, _ values: String...) { parts.append(([name] + values).joined(separator: ":")) }
    func flag(_ value: Bool) -> String { value ? "1" : "0" }
    let number = OptionArgument.format
    if resizingType != defaults.resizingType { add("rt", resizingType.rawValue) }
    if width != defaults.width { add("w", String(width)) }
    if height != defaults.height { add("h", String(height)) }
    if enlarges != defaults.enlarges { add("el", flag(enlarges)) }
    if extends != defaults.extends { add("ex", flag(extends)) }
    if gravity != defaults.gravity {
      switch gravity {
      case .anchor(let anchor, let x, let y): add("g", anchor.rawValue, number(x), number(y))
      case .smart: add("g", "sm")
      case .focusPoint(let x, let y): add("g", "fp", number(x), number(y))
      }
    }
    if let quality { add("q", String(quality)) }
    if let format { add("f", format == .jpeg ? "jpg" : format.rawValue) }
    if devicePixelRatio != defaults.devicePixelRatio { add("dpr", number(devicePixelRatio)) }
    if blurSigma != defaults.blurSigma { add("bl", number(blurSigma)) }
    if sharpenSigma != defaults.sharpenSigma { add("sh", number(sharpenSigma)) }
    if padding != defaults.padding {
      add("pd", String(padding.top), String(padding.right), String(padding.bottom), String(padding.left))
    }
    if let background {
      // The URL grammar has no alpha: a colour set in code with one keeps
      // it in the key, so two different colours never share an entry.
      let hex = [background.red, background.green, background.blue].map { hexByte($0) }.joined()
      add("bg", background.alpha == 255 ? hex : hex + hexByte(background.alpha))
    }
    if rotation != defaults.rotation { add("rot", String(rotation)) }
    if stripsMetadata != defaults.stripsMetadata { add("sm", flag(stripsMetadata)) }
    if keepsCopyright != defaults.keepsCopyright { add("kcr", flag(keepsCopyright)) }
    if colorProfile != defaults.colorProfile { add("cc", colorProfile.rawValue) }
    return parts
  }

  private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
  }
}
