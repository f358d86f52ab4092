#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer

  /// The code the Running magpie serve Behind nginx article quotes,
  /// compiled with the tests where the server is built.
  enum ServeSnippets {
    /// The article's signed path: a 300x200 smart crop of `source` as
    /// WebP, under the hex `key` and `salt` the servers were started with.
    static func signedThumbnailPath(key: String, salt: String, source: URL) throws -> String {
      // snippet.begin serve-sign-path
      let signer = try URLSigner(hexKey: key, hexSalt: salt)
      var options = TransformOptions()
      options.resizingType = .fill
      options.width = 300
      options.height = 200
      options.gravity = .smart
      let path = signer.signedPath(options: options, source: source, format: .webp)
      // "/SIGNATURE/rt:fill/w:300/h:200/g:sm/plain/https%3A%2F%2F...@webp"
      // snippet.end
      return path
    }
  }
#endif
