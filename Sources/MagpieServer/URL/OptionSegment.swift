/// One `name:arg:arg…` segment of a transform URL or preset, its name
/// looked up.
struct OptionSegment: Sendable, Hashable {
  /// The option it names.
  var kind: OptionKind
  /// The name as written, for error reasons.
  var name: String
  /// The arguments after the name, empty ones included.
  var arguments: [String]

  /// `text` split at its `:`s; a name no option has, or no `:`, is a 400.
  init(_ text: ArraySlice<UInt8>) throws(TransformURLError) {
    let parts = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    name = String(decoding: parts[0], as: UTF8.self)
    guard let kind = OptionKind.byName[name] else {
      throw TransformURLError(.badRequest, "unknown option `\(name.prefix(40))`")
    }
    // Every option takes arguments; `pd` alone would leave none to read.
    guard parts.count > 1 else { throw .option(name, "needs `:` and its arguments") }
    self.kind = kind
    arguments = parts.dropFirst().map { String(decoding: $0, as: UTF8.self) }
  }
}
