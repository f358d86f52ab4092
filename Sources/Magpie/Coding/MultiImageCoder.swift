import Foundation

/// A coder whose files hold several images of their own sizes side by side:
/// an icon's entries, a multi-page document. Its ``ImageCoder/decode(_:options:)``
/// gives the one image a request wants (an icon's entry for the target
/// size); these reach every one, for a user who wants them all
/// (``CoderRegistry/decodeSubimages(_:options:)``, `magpie decode`).
public protocol MultiImageCoder: ImageCoder {
  /// What each image in `data` is, in the order they are best listed (an
  /// icon's largest entry first), from the headers alone.
  func subimages(in data: Data) throws(MagpieError) -> [SubimageInfo]

  /// Decodes image `index` of ``subimages(in:)``.
  func decodeSubimage(at index: Int, in data: Data, options: DecodeOptions) throws(MagpieError) -> Image

  /// Whether `magpie decode` writes every image as a frame (an icon's
  /// entries, a TIFF's pages) or only the one ``ImageCoder/decode(_:options:)``
  /// gives (a PDF's first page). True unless a coder says otherwise.
  var decodesSubimagesAsFrames: Bool { get }
}

extension MultiImageCoder {
  /// Every image is a frame of `magpie decode`'s output.
  public var decodesSubimagesAsFrames: Bool { true }
}
