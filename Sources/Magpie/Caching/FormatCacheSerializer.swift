import Foundation

/// Stores every image in one format, whatever came in: PNG for lossless
/// archives, JPEG or WebP to save disk (Kingfisher's example keeps
/// everything as WebP).
public struct FormatCacheSerializer: CacheSerializer {
  /// The stored format.
  public enum Format: Sendable, Equatable {
    /// PNG, lossless.
    case png
    /// JPEG at a quality 0-100 (alpha is dropped).
    case jpeg(quality: Int)
    /// Lossy WebP at a quality 0-100.
    case webp(quality: Int)
    /// Lossless WebP.
    case webpLossless
  }

  /// The format images are stored in.
  public var format: Format
  /// The coders used to encode and decode.
  public var registry: CoderRegistry

  /// A serializer that stores `format`.
  public init(_ format: Format, registry: CoderRegistry = .shared) {
    self.format = format
    self.registry = registry
  }

  /// PNG, lossless.
  public static let png = FormatCacheSerializer(.png)

  /// `image` encoded in ``format``; `original` is not used.
  public func data(with image: Image, original: Data?) -> Data? {
    switch format {
    case .png: try? registry.encode(image, as: .png)
    case .jpeg(let quality): try? registry.encode(image, as: .jpeg, options: EncodeOptions(quality: quality))
    case .webp(let quality): try? registry.encode(image, as: .webp, options: EncodeOptions(quality: quality))
    case .webpLossless: try? registry.encode(image, as: .webp, options: EncodeOptions(lossless: true))
    }
  }

  /// Decodes `data` with the registry.
  public func image(with data: Data, options: DecodeOptions) -> Image? {
    try? registry.decode(data, options: options)
  }
}
