import Magpie

extension TransformOptions {
  /// Applies one option (not a preset: the parser expands those) with its
  /// arguments, as imgproxy does: an empty argument keeps the field's
  /// current value, and a later option overrides an earlier one.
  mutating func apply(_ kind: OptionKind, _ arguments: [String], as name: String) throws(TransformURLError) {
    guard arguments.count <= kind.maximumArguments else {
      throw .option(name, "takes at most \(kind.maximumArguments) arguments, got \(arguments.count)")
    }
    let dimension = 0...TransformURLLimits.maximumDimension
    func argument(_ index: Int) -> String? {
      index < arguments.count && !arguments[index].isEmpty ? arguments[index] : nil
    }
    func bool(_ index: Int) throws(TransformURLError) -> Bool? {
      guard let text = argument(index) else { return nil }
      return try OptionArgument.bool(text, option: name)
    }
    func integer(_ index: Int, _ range: ClosedRange<Int>) throws(TransformURLError) -> Int? {
      guard let text = argument(index) else { return nil }
      return try OptionArgument.integer(text, option: name, in: range)
    }
    func sigma(_ index: Int) throws(TransformURLError) -> Double? {
      guard let text = argument(index) else { return nil }
      return try OptionArgument.number(text, option: name, in: 0...TransformURLLimits.maximumSigma)
    }
    switch kind {
    case .resize, .size:
      // rs: is rt: followed by s:'s arguments.
      let first = kind == .resize ? 1 : 0
      if kind == .resize { try applyResizingType(argument(0), as: name) }
      width = try integer(first, dimension) ?? width
      height = try integer(first + 1, dimension) ?? height
      enlarges = try bool(first + 2) ?? enlarges
      extends = try bool(first + 3) ?? extends
    case .resizingType: try applyResizingType(argument(0), as: name)
    case .width: width = try integer(0, dimension) ?? width
    case .height: height = try integer(0, dimension) ?? height
    case .enlarge: enlarges = try bool(0) ?? enlarges
    case .extend: extends = try bool(0) ?? extends
    case .gravity: try applyGravity(arguments, as: name)
    case .quality:
      // 0 is imgproxy's "the server's default".
      if let value = try integer(0, 0...100) { quality = value == 0 ? nil : value }
    case .format: if let text = argument(0) { format = try Self.format(named: text) }
    case .devicePixelRatio:
      if let text = argument(0) {
        devicePixelRatio = try OptionArgument.number(
          text, option: name, in: 0...TransformURLLimits.maximumDevicePixelRatio, excludingLowerBound: true)
      }
    case .blur: blurSigma = try sigma(0) ?? blurSigma
    case .sharpen: sharpenSigma = try sigma(0) ?? sharpenSigma
    case .padding: try applyPadding(arguments, as: name)
    case .background: try applyBackground(arguments, as: name)
    case .rotate:
      if let value = try integer(0, 0...270) {
        guard value % 90 == 0 else { throw .option(name, "\(value) is not 0, 90, 180 or 270") }
        rotation = value
      }
    case .stripMetadata: stripsMetadata = try bool(0) ?? stripsMetadata
    case .keepCopyright: keepsCopyright = try bool(0) ?? keepsCopyright
    case .colorProfile:
      if let text = argument(0) {
        guard let profile = ColorProfileOption(rawValue: text) else {
          throw .option(name, "`\(text.prefix(40))` is not srgb, keep or srgb-tagged")
        }
        colorProfile = profile
      }
    case .preset: preconditionFailure("the parser expands presets")
    }
  }

  /// The output format a URL's `f:` argument or extension names: the five
  /// formats the server encodes.
  static func format(named text: String) throws(TransformURLError) -> ImageFormat {
    switch text {
    case "jpg", "jpeg": .jpeg
    case "png": .png
    case "gif": .gif
    case "webp": .webp
    case "avif": .avif
    default: throw .option("format", "`\(text.prefix(40))` is not jpg, jpeg, png, gif, webp or avif")
    }
  }

  private mutating func applyResizingType(_ text: String?, as name: String) throws(TransformURLError) {
    guard let text else { return }
    guard let type = ResizingType(rawValue: text) else {
      throw .option(name, "`\(text.prefix(40))` is not fit, fill, fill-down or force")
    }
    resizingType = type
  }
}
