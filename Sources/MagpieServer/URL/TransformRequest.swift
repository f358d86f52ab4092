import Foundation

/// One transform URL, parsed: what to fetch, what to do to it, and the
/// parts of the path its signature covers.
public struct TransformRequest: Sendable, Hashable {
  /// The first path segment as given: a signature, or `unsafe`.
  public var signature: String
  /// The options after the `default` preset, the URL's options in order
  /// (presets expanded where named) and the path's extension.
  public var options: TransformOptions
  /// The source image's URL (always `http` or `https`).
  public var source: URL
  /// The path's `@EXT` (plain source) or `.EXT` (base64 source) as
  /// written, `nil` when there is none; ``TransformOptions/format`` holds
  /// the format it names.
  public var outputExtension: String?
  /// The part of the path after the signature segment, from its leading
  /// `/`: exactly the bytes the signature signs.
  public var signedPath: String

  /// A request of these parts.
  public init(
    signature: String, options: TransformOptions, source: URL, outputExtension: String?, signedPath: String
  ) {
    self.signature = signature
    self.options = options
    self.source = source
    self.outputExtension = outputExtension
    self.signedPath = signedPath
  }

  /// The request's identity for caches and ETags: the options'
  /// ``TransformOptions/canonicalString`` and the source URL, so two URLs
  /// that spell the same work differently share one key.
  public var canonicalKey: String { options.canonicalString + "|" + source.absoluteString }
}
