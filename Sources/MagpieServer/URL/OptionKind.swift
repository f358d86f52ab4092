/// The options a transform URL may name, each under its imgproxy long
/// name and short names.
enum OptionKind: String, CaseIterable {
  case resize, size, resizingType, width, height, enlarge, extend, gravity, quality, format, devicePixelRatio
  case blur, sharpen, padding, background, rotate, stripMetadata, keepCopyright, colorProfile, preset

  /// Every spelling of the option in a URL; the first is its long name.
  var names: [String] {
    switch self {
    case .resize: ["resize", "rs"]
    case .size: ["size", "s"]
    case .resizingType: ["resizing_type", "rt"]
    case .width: ["width", "w"]
    case .height: ["height", "h"]
    case .enlarge: ["enlarge", "el"]
    case .extend: ["extend", "ex"]
    case .gravity: ["gravity", "g"]
    case .quality: ["quality", "q"]
    case .format: ["format", "f", "ext"]
    case .devicePixelRatio: ["dpr"]
    case .blur: ["blur", "bl"]
    case .sharpen: ["sharpen", "sh"]
    case .padding: ["padding", "pd"]
    case .background: ["background", "bg"]
    case .rotate: ["rotate", "rot"]
    case .stripMetadata: ["strip_metadata", "sm"]
    case .keepCopyright: ["keep_copyright", "kcr"]
    case .colorProfile: ["color_profile", "cc"]
    case .preset: ["preset", "pr"]
    }
  }

  /// The most arguments the option takes (presets: names, bounded only
  /// by the path's length and the expanded-option limit).
  var maximumArguments: Int {
    switch self {
    case .resize: 5
    case .size, .padding: 4
    case .gravity, .background: 3
    case .preset: Int.max
    default: 1
    }
  }

  /// The option every spelling names.
  static let byName: [String: OptionKind] = Dictionary(
    uniqueKeysWithValues: allCases.flatMap { kind in kind.names.map { ($0, kind) } })
}
