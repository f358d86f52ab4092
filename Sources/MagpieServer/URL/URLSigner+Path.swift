import Foundation
import Magpie

extension URLSigner {
  /// A full signed path for `options` applied to `source`:
  /// `/SIGNATURE/` then ``TransformOptions/canonicalPathComponents``, then
  /// the source as `encoding` writes it, with `format`'s extension when
  /// given (it overrides `options.format`).
  ///
  /// A server with a `default` preset applies it first: fields `options`
  /// leaves at their defaults take the preset's values there.
  public func signedPath(
    options: TransformOptions, source: URL, format: ImageFormat? = nil, encoding: TransformSourceEncoding = .plain
  ) -> String {
    let path = Self.pathAfterSignature(options: options, source: source, format: format, encoding: encoding)
    return "/" + signature(for: path) + path
  }

  /// As ``signedPath(options:source:format:encoding:)`` with `unsafe` for
  /// the signature, for a server with signing off.
  public static func unsafePath(
    options: TransformOptions, source: URL, format: ImageFormat? = nil, encoding: TransformSourceEncoding = .plain
  ) -> String {
    "/unsafe" + pathAfterSignature(options: options, source: source, format: format, encoding: encoding)
  }

  /// The part a signature signs, from its leading `/`.
  static func pathAfterSignature(
    options: TransformOptions, source: URL, format: ImageFormat?, encoding: TransformSourceEncoding
  ) -> String {
    var path = options.canonicalPathComponents.map { "/" + $0 }.joined()
    let formatExtension = format.map { $0 == .jpeg ? "jpg" : $0.rawValue }
    switch encoding {
    case .plain:
      path += "/plain/" + SourceURL.percentEncoded(source.absoluteString)
      if let formatExtension { path += "@" + formatExtension }
    case .base64:
      path += "/" + Base64URL.encode(Array(source.absoluteString.utf8))
      if let formatExtension { path += "." + formatExtension }
    }
    return path
  }
}
