import Foundation

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

  /// Whether the processor, first in a chain, does better given the
  /// encoded bytes than a decoded image, because it decodes them at its
  /// own smaller size (``ImageProcessors/Downsampling``,
  /// ``ImageProcessors/Resizing``). The pipeline hands such a processor
  /// the bytes; every other chain gets the decoded image, one decode
  /// shared by every chain over the same bytes. `false` unless a
  /// processor says otherwise.
  var prefersEncodedData: Bool { get }
}

extension ImageProcessor {
  /// `false`: the processor gets the shared decoded image.
  public var prefersEncodedData: Bool { false }
}

extension ImageProcessor {
  /// ``process(item:options:)``, with ``MagpieError/processor`` set to this
  /// processor's ``identifier`` on what it throws unless an inner processor
  /// (a chain's part) already claimed it: how chains and the pipeline run
  /// processors.
  /// An on-demand animation gets the processor on every frame as it is
  /// decoded (see ``ImageProcessItem/onDemandAnimation(options:)``).
  func processNamingFailures(item: ImageProcessItem, options: ImageProcessingOptions) throws(MagpieError) -> Image {
    if let animated = item.onDemandAnimation(options: options) {
      return try animated.addingFrameProcessor(self, options: options)
    }
    do throws(MagpieError) {
      let result = try process(item: item, options: options)
      guard case .image(let source) = item else { return result }
      return result.keepingDescription(of: source)
    } catch {
      throw error.raised(by: identifier)
    }
  }
}

/// What a processor is given: encoded bytes (the first processor of a chain
/// may decode them itself, at the size it needs) or a decoded image.
public enum ImageProcessItem: Sendable {
  /// Encoded image data.
  case data(Data)
  /// A decoded image.
  case image(Image)
}
