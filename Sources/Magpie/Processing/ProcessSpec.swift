/// A parsed `--process` value of the `magpie` CLI: processors joined by
/// `|`, applied left to right, e.g. `downsample(256x256)|round(16)`.
///
/// `package`, not in the CLI's executable target, so the fuzz harnesses
/// (MagpieFuzzHarnesses) can reach the parser; the CLI keeps the glue
/// (ProcessSpec+CLI.swift, +Apply, +Bench).
package struct ProcessSpec {
  /// One step of the spec.
  package enum Step: Equatable {
    case downsample(PixelSize)
    case resize(PixelSize, mode: String)
    case crop(PixelSize, anchor: String)
    case round(radius: Double)
    case blur(radius: Double)
    case tint(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)
    case grayscale
    case rotate(degrees: Int)
    case flip(horizontal: Bool)
  }

  /// The steps, in the order they apply.
  package let steps: [Step]

  /// Parses `text`; anything it does not understand is an
  /// ``MagpieError/Code/invalidArgument`` error whose reason says what
  /// (the CLI prints it as a `--process` usage error).
  package init(_ text: String) throws(MagpieError) {
    var steps: [Step] = []
    for part in text.split(separator: "|", omittingEmptySubsequences: false) {
      steps.append(try Self.parseStep(String(part).trimmed()))
    }
    self.steps = steps
  }

  /// The size the first downsampling step wants, which decoders can use to
  /// shrink while decoding.
  package var decodeTarget: PixelSize? {
    if case .downsample(let size)? = steps.first { return size }
    return nil
  }

  /// The size a vector (SVG, PDF) is best rendered at for these steps: the
  /// first step's downsample or fit/fill resize box, with its content mode,
  /// so the resize has nothing left to do instead of scaling a render made
  /// at the intrinsic size.
  package var renderTarget: (size: PixelSize, mode: DecodeOptions.ContentMode)? {
    switch steps.first {
    case .downsample(let size)?: return (size, .aspectFit)
    case .resize(let size, let mode)? where mode == "fit": return (size, .aspectFit)
    case .resize(let size, let mode)? where mode == "fill": return (size, .aspectFill)
    default: return nil
    }
  }

  private static func parseStep(_ text: String) throws(MagpieError) -> Step {
    let name: String
    var arguments: [String] = []
    if let open = text.firstIndex(of: "(") {
      guard text.hasSuffix(")") else { throw MagpieError(.invalidArgument, "'\(text)' lacks a closing ')'") }
      name = String(text[..<open])
      let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
      arguments = inner.split(separator: ",", omittingEmptySubsequences: false).map {
        String($0).trimmed()
      }
    } else {
      name = text
    }
    func expect(_ counts: ClosedRange<Int>, _ form: String) throws(MagpieError) {
      guard counts.contains(arguments.count) else {
        throw MagpieError(.invalidArgument, "expected \(form), got '\(text)'")
      }
    }
    switch name {
    case "downsample":
      try expect(1...1, "downsample(WxH)")
      return .downsample(try size(arguments[0], in: text))
    case "resize":
      try expect(1...2, "resize(WxH[,fit|fill|stretch])")
      let mode = arguments.count > 1 ? arguments[1] : "fit"
      guard ["fit", "fill", "stretch"].contains(mode) else {
        throw MagpieError(.invalidArgument, "resize mode must be fit, fill or stretch, got '\(mode)'")
      }
      return .resize(try size(arguments[0], in: text), mode: mode)
    case "crop":
      try expect(1...2, "crop(WxH[,center|top|bottom|left|right])")
      let anchor = arguments.count > 1 ? arguments[1] : "center"
      guard ["center", "top", "bottom", "left", "right"].contains(anchor) else {
        throw MagpieError(.invalidArgument, "crop anchor must be center, top, bottom, left or right, got '\(anchor)'")
      }
      return .crop(try size(arguments[0], in: text), anchor: anchor)
    case "round":
      try expect(1...1, "round(R)")
      return .round(radius: try radius(arguments[0], in: text))
    case "blur":
      try expect(1...1, "blur(R)")
      return .blur(radius: try radius(arguments[0], in: text))
    case "tint":
      try expect(1...1, "tint(#RRGGBB[AA])")
      return try tint(arguments[0], in: text)
    case "grayscale":
      try expect(0...0, "grayscale")
      return .grayscale
    case "rotate":
      try expect(1...1, "rotate(90|180|270)")
      guard let degrees = Int(arguments[0]), [90, 180, 270].contains(degrees) else {
        throw MagpieError(.invalidArgument, "rotate takes 90, 180 or 270, got '\(arguments[0])'")
      }
      return .rotate(degrees: degrees)
    case "flip":
      try expect(1...1, "flip(h|v)")
      guard arguments[0] == "h" || arguments[0] == "v" else {
        throw MagpieError(.invalidArgument, "flip takes h or v, got '\(arguments[0])'")
      }
      return .flip(horizontal: arguments[0] == "h")
    case "":
      throw MagpieError(.invalidArgument, "empty processor in '\(text)'")
    default:
      throw MagpieError(.invalidArgument, "unknown processor '\(name)'")
    }
  }

  private static func size(_ text: String, in step: String) throws(MagpieError) -> PixelSize {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 65_535, h <= 65_535
    else {
      throw MagpieError(.invalidArgument, "expected a size WxH of positive whole numbers in '\(step)'")
    }
    return PixelSize(width: w, height: h)
  }

  private static func radius(_ text: String, in step: String) throws(MagpieError) -> Double {
    guard let r = Double(text), r.isFinite, r >= 0, r <= 10_000 else {
      throw MagpieError(.invalidArgument, "expected a radius from 0 to 10000 in '\(step)'")
    }
    return r
  }

  private static func tint(_ text: String, in step: String) throws(MagpieError) -> Step {
    let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else {
      throw MagpieError(.invalidArgument, "expected a colour #RRGGBB or #RRGGBBAA in '\(step)'")
    }
    let rgba = hex.count == 6 ? value << 8 | 0xFF : value
    return .tint(
      red: UInt8(rgba >> 24), green: UInt8((rgba >> 16) & 0xFF), blue: UInt8((rgba >> 8) & 0xFF),
      alpha: UInt8(rgba & 0xFF))
  }
}

extension String {
  fileprivate func trimmed() -> String {
    var s = Substring(self)
    while s.first == " " { s = s.dropFirst() }
    while s.last == " " { s = s.dropLast() }
    return String(s)
  }
}
