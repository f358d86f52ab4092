/// Turns an image (or image data) into another image: Kingfisher's
/// ImageProcessor. Processed images are cached under the source key plus
/// ``identifier``, so two processors that can produce different pixels must
/// never share an identifier, and one processor with the same parameters
/// must always have the same one.
public protocol ImageProcessor: Sendable {
  /// A stable string naming this processor and every parameter that
  /// changes its output, e.g. `"round(16,all,#00000000)"`.
  var identifier: String { get }

  /// The processed image, or `nil` when this processor cannot handle the
  /// item (the pipeline then fails with
  /// ``MagpieError/Code/processingFailed`` naming ``identifier``).
  func process(item: ImageProcessItem, options: ImageProcessingOptions) -> Image?
}
