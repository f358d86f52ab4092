/// Turns an image (or image data) into another image: Kingfisher's
/// ImageProcessor. Processed images are cached under the source key plus
/// ``identifier``, so two processors that can produce different pixels must
/// never share an identifier, and one processor with the same parameters
/// must always have the same one.
public protocol ImageProcessor: Sendable {
  /// A stable string naming this processor and every parameter that
  /// changes its output, e.g. `"round(16,all,#00000000)"`.
  var identifier: String { get }

  /// The processed image.
  ///
  /// Throws what decoding throws when the item is data that does not
  /// decode, with its own code (``MagpieError/Code/corruptData``,
  /// ``MagpieError/Code/imageTooLarge``, ...), and
  /// ``MagpieError/Code/processingFailed`` with a reason naming
  /// ``identifier`` when the processor itself cannot handle the image. The
  /// pipeline sets ``MagpieError/processor`` to ``identifier`` when the
  /// error does not name a processor yet.
  func process(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image
}

extension ImageProcessor {
  /// ``process(item:options:)``, with ``MagpieError/processor`` set to this
  /// processor's ``identifier`` on what it throws unless an inner processor
  /// (a chain's part) already claimed it: how chains and the pipeline run
  /// processors.
  func processNamingFailures(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    do throws(MagpieError) {
      return try process(item: item, options: options)
    } catch {
      throw error.raised(by: identifier)
    }
  }
}
