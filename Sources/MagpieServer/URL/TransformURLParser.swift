import Foundation

/// Reads `magpie serve`'s transform URLs, which take imgproxy's shape:
///
///     /SIGNATURE/OPTION/OPTION…/plain/SOURCE_URL[@EXT]
///     /SIGNATURE/OPTION/OPTION…/BASE64URL_SOURCE[.EXT]
///
/// An option is `name:arg:arg…` under imgproxy's long or short name
/// (docs/serve.md lists them); the plain source is percent-decoded once;
/// the base64 source (URL-safe, padding optional) may be split by `/`.
/// The `default` preset applies first, then the options in order, then
/// the extension.
///
/// With a ``URLSigner`` the first segment must be the path's signature
/// (`unsafe` is refused); without one it must be `unsafe`, so a client
/// that signs against a server that does not check learns it at once.
public struct TransformURLParser: Sendable {
  /// The signer that checks signatures, `nil` when signing is off.
  public let signer: URLSigner?
  private let presets: PresetTable
  /// What every URL's options start from: the defaults with the
  /// `default` preset applied.
  public let baseOptions: TransformOptions

  /// A parser with `presets` (name → option path, e.g. `"thumb":
  /// "rs:fill:200:200/g:sm"`) and a signer, or none for `unsafe` paths.
  /// Throws a ``TransformURLError/Kind/configuration`` error for a preset
  /// that does not parse, names an unknown preset, or nests in a cycle or
  /// too deep.
  public init(presets: [String: String] = [:], signer: URLSigner? = nil) throws(TransformURLError) {
    self.signer = signer
    self.presets = try PresetTable(presets)
    var base = TransformOptions()
    for segment in self.presets.expanded["default"] ?? [] {
      // PresetTable applied every preset once already: this cannot fail.
      try base.apply(segment.kind, segment.arguments, as: segment.name)
    }
    baseOptions = base
  }

  /// Parses a request's path (a query after `?` is dropped, as imgproxy
  /// drops it). The path must be as the client sent it, not
  /// percent-decoded: the signature covers those bytes.
  public func parse(_ requestPath: String) throws(TransformURLError) -> TransformRequest {
    // Bytes, not Characters: a `/`, `:`, `@` or `?` followed by a combining
    // mark is one Character, and must still split as imgproxy splits.
    let path = Array(requestPath.utf8.prefix { $0 != UInt8(ascii: "?") })
    guard path.count <= TransformURLLimits.maximumPathLength else {
      throw TransformURLError(.pathTooLong, "path: over \(TransformURLLimits.maximumPathLength) bytes")
    }
    guard path.first == UInt8(ascii: "/") else {
      throw TransformURLError(.badRequest, "path: does not start with `/`")
    }
    let rest = path.dropFirst()
    let signatureEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
    let signature = String(decoding: rest[..<signatureEnd], as: UTF8.self)
    let signedPath = String(decoding: rest[signatureEnd...], as: UTF8.self)
    try checkSignature(signature, signedPath)

    var segments = rest[signatureEnd...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      .dropFirst()
    var options: [OptionSegment] = []
    while let segment = segments.first, segment.contains(UInt8(ascii: ":")) {
      guard options.count < TransformURLLimits.maximumOptionCount else {
        throw TransformURLError(.badRequest, "path: over \(TransformURLLimits.maximumOptionCount) options")
      }
      options.append(try OptionSegment(segment))
      segments.removeFirst()
    }
    let (source, outputExtension) = try Self.source(segments)

    var result = baseOptions
    var applied = 0
    func apply(_ expansion: [OptionSegment]) throws(TransformURLError) {
      applied += expansion.count
      guard applied <= TransformURLLimits.maximumExpandedOptionCount else {
        throw TransformURLError(
          .badRequest, "path: over \(TransformURLLimits.maximumExpandedOptionCount) options with presets expanded")
      }
      for option in expansion { try result.apply(option.kind, option.arguments, as: option.name) }
    }
    for segment in options {
      guard segment.kind == .preset else {
        try apply([segment])
        continue
      }
      for name in segment.arguments where !name.isEmpty {
        guard let named = presets.expanded[name] else {
          throw .option(segment.name, "no preset is called `\(name.prefix(40))`")
        }
        try apply(named)
      }
    }
    if let outputExtension, !outputExtension.isEmpty {
      result.format = try TransformOptions.format(named: outputExtension)
    }
    try result.checkCombinedLimits()
    return TransformRequest(
      signature: signature, options: result, source: source, outputExtension: outputExtension, signedPath: signedPath)
  }

  private func checkSignature(_ signature: String, _ signedPath: String) throws(TransformURLError) {
    guard !signature.isEmpty else { throw TransformURLError(.forbidden, "signature: missing") }
    guard let signer else {
      guard signature == "unsafe" else {
        throw TransformURLError(.forbidden, "signature: signing is off, so the first segment must be `unsafe`")
      }
      return
    }
    guard signature != "unsafe" else {
      throw TransformURLError(.forbidden, "signature: signing is on, `unsafe` paths are refused")
    }
    guard signer.verifies(signature, for: signedPath) else {
      throw TransformURLError(.forbidden, "signature: does not match the path")
    }
  }

  /// The source from the segments after the options: `plain/URL[@EXT]`
  /// or base64 chunks `[.EXT]`; and the extension as written.
  private static func source(_ segments: ArraySlice<ArraySlice<UInt8>>) throws(TransformURLError) -> (URL, String?) {
    guard let first = segments.first, !(segments.count == 1 && first.isEmpty) else {
      throw TransformURLError(.badRequest, "source: missing after the options")
    }
    var outputExtension: String?
    if first.elementsEqual("plain".utf8) {
      var text = ArraySlice(Array(segments.dropFirst().joined(separator: [UInt8(ascii: "/")])))
      // The last `@` starts the extension unless a `/` follows it (then it
      // is the source's own, as in a user name).
      if let at = text.lastIndex(of: UInt8(ascii: "@")), !text[at...].contains(UInt8(ascii: "/")) {
        outputExtension = String(decoding: text[(at + 1)...], as: UTF8.self)
        text = text[..<at]
      }
      guard !text.isEmpty else { throw TransformURLError(.badRequest, "source: missing after `plain/`") }
      guard let decoded = SourceURL.percentDecoded(text) else {
        throw TransformURLError(.badRequest, "source: a bad percent escape, or not UTF-8 once decoded")
      }
      return (try SourceURL.validated(decoded), outputExtension)
    }
    var encoded = ArraySlice(Array(segments.joined()))
    if let dot = encoded.firstIndex(of: UInt8(ascii: ".")) {
      outputExtension = String(decoding: encoded[(dot + 1)...], as: UTF8.self)
      encoded = encoded[..<dot]
    }
    guard let bytes = Base64URL.decode(encoded), let decoded = String(validating: bytes, as: UTF8.self) else {
      throw TransformURLError(.badRequest, "source: not URL-safe base64 of a UTF-8 URL (or `plain/` is missing)")
    }
    return (try SourceURL.validated(decoded), outputExtension)
  }
}
