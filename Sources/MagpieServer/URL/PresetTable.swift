/// The server's presets (`pr:NAME`), each expanded once at start-up into
/// the options it stands for, so a bad preset fails the start rather than
/// every request, and a request never recurses.
struct PresetTable: Sendable {
  /// Each preset's options, with the presets it names expanded in place.
  private(set) var expanded: [String: [OptionSegment]] = [:]

  /// One preset's options and how many presets deep it goes (1 when it
  /// names none).
  private struct Expansion {
    var segments: [OptionSegment]
    var height: Int
  }

  /// Expands `presets` (name → option path such as `rs:fill:200:200/g:sm`).
  /// A name with `:` or `/`, an option that does not parse, an unknown
  /// preset, a cycle, nesting deeper than
  /// ``TransformURLLimits/maximumPresetDepth`` or an expansion over
  /// ``TransformURLLimits/maximumExpandedOptionCount`` options is a
  /// ``TransformURLError/Kind/configuration`` error.
  init(_ presets: [String: String]) throws(TransformURLError) {
    var parsed: [String: [OptionSegment]] = [:]
    var memo: [String: Expansion] = [:]
    for (name, path) in presets {
      guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: ":")), !name.utf8.contains(UInt8(ascii: "/")) else {
        throw TransformURLError(.configuration, "preset `\(name)`: a name needs no `:` or `/`")
      }
      var segments: [OptionSegment] = []
      for text in Array(path.utf8).split(separator: UInt8(ascii: "/")) {
        do {
          segments.append(try OptionSegment(text))
        } catch {
          throw TransformURLError(.configuration, "preset `\(name)`: \(error.reason)")
        }
      }
      parsed[name] = segments
    }
    for name in parsed.keys.sorted() {
      var stack: [String] = []
      expanded[name] = try Self.expand(name, in: parsed, stack: &stack, memo: &memo).segments
      // Applying it once catches bad arguments now rather than per request.
      var options = TransformOptions()
      do {
        for segment in expanded[name]! { try options.apply(segment.kind, segment.arguments, as: segment.name) }
      } catch {
        throw TransformURLError(.configuration, "preset `\(name)`: \(error.reason)")
      }
    }
  }

  private static func checkCount(_ segments: [OptionSegment], _ name: String) throws(TransformURLError) {
    guard segments.count <= TransformURLLimits.maximumExpandedOptionCount else {
      throw TransformURLError(
        .configuration, "preset `\(name)` expands to over \(TransformURLLimits.maximumExpandedOptionCount) options")
    }
  }

  private static func expand(
    _ name: String, in parsed: [String: [OptionSegment]], stack: inout [String],
    memo: inout [String: Expansion]
  ) throws(TransformURLError) -> Expansion {
    // A preset expands the same wherever it is named: expanding each once
    // keeps presets that name others many times from multiplying the work.
    // Its height still counts toward the depth wherever it is named.
    if let done = memo[name] {
      try checkDepth(stack.count + done.height, stack + [name])
      return done
    }
    guard let segments = parsed[name] else {
      throw TransformURLError(.configuration, "preset `\(stack.last ?? name)` names unknown preset `\(name)`")
    }
    guard !stack.contains(name) else {
      throw TransformURLError(.configuration, "presets form a cycle: \((stack + [name]).joined(separator: " → "))")
    }
    try checkDepth(stack.count + 1, stack + [name])
    stack.append(name)
    defer { stack.removeLast() }
    var result: [OptionSegment] = []
    var height = 1
    for segment in segments {
      if segment.kind == .preset {
        for inner in segment.arguments where !inner.isEmpty {
          let innerExpansion = try expand(inner, in: parsed, stack: &stack, memo: &memo)
          result += innerExpansion.segments
          height = max(height, innerExpansion.height + 1)
          try checkCount(result, name)
        }
      } else {
        result.append(segment)
        try checkCount(result, name)
      }
    }
    memo[name] = Expansion(segments: result, height: height)
    return memo[name]!
  }

  private static func checkDepth(_ depth: Int, _ chain: [String]) throws(TransformURLError) {
    guard depth <= TransformURLLimits.maximumPresetDepth else {
      throw TransformURLError(
        .configuration,
        "presets nest deeper than \(TransformURLLimits.maximumPresetDepth): \(chain.joined(separator: " → ")) …")
    }
  }
}
