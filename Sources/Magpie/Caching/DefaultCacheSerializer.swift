import Foundation

/// Stores an image as the bytes it was decoded from when it is unprocessed
/// (no re-encoding, no loss), and re-encodes processed images in their
/// original format (falling back to PNG for formats Magpie cannot write).
public struct DefaultCacheSerializer: CacheSerializer {
  /// Store `original` even for processed images (Kingfisher's switch): the
  /// disk then holds what the server sent, and processors run again on
  /// every disk hit.
  public var preferCacheOriginalData: Bool
  /// How processed images are re-encoded (default: quality 90).
  public var encodeOptions: EncodeOptions
  /// The coders used to encode and decode.
  public var registry: CoderRegistry

  /// A serializer that keeps originals only for unprocessed images.
  public init(
    preferCacheOriginalData: Bool = false,
    encodeOptions: EncodeOptions = EncodeOptions(quality: 90, compressionLevel: 1),
    registry: CoderRegistry = .shared
  ) {
    self.preferCacheOriginalData = preferCacheOriginalData
    self.encodeOptions = encodeOptions
    self.registry = registry
  }

  /// The image's own encoded bytes when it has them (an unprocessed
  /// on-demand animation's included), else (with
  /// ``preferCacheOriginalData``) `original`, else a fresh encoding (an
  /// on-demand animation's frames streamed through the encoder).
  public func data(with image: Image, original: Data?) -> Data? {
    if let own = image.originalData { return own }
    if let animation = image.animation, animation.processors.isEmpty { return animation.data }
    if preferCacheOriginalData, let original { return original }
    var format = image.format
    if format == .unknown, let original { format = ImageFormat.sniff(original) }
    if registry.encoder(for: format) == nil { format = .png }
    return try? registry.encode(image, as: format, options: encodeOptions)
  }

  /// Decodes `data` with the registry.
  public func image(with data: Data, options: DecodeOptions) -> Image? {
    try? registry.decode(data, options: options)
  }
}
