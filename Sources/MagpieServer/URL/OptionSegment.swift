/// One `name:arg:arg…` segment of a transform URL or preset, its name
/// looked up.
struct OptionSegment: Sendable, Hashable {
  /// The option it names.
  var kind: OptionKind
  /// The name as written, for error reasons.
  var name: String
  /// The arguments after the name, empty ones included.
  var arguments: [String]

  /// `text` split at its `:`s; a name no option has is a 400.
  init(_ text: Substring) throws(TransformURLError) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    name = String(parts[0])
    guard let kind = OptionKind.byName[name] else {
      throw TransformURLError(.badRequest, "unknown option `\(name.prefix(40))`")
    }
    self.kind = kind
    arguments = parts.dropFirst().map(String.init)
  }
}
