import Foundation

/// What a processor is given: encoded bytes (the first processor of a chain
/// may decode them itself, at the size it needs) or a decoded image.
public enum ImageProcessItem: Sendable {
  /// Encoded image data.
  case data(Data)
  /// A decoded image.
  case image(Image)
}
