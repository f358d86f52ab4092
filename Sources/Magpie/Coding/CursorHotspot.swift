/// The pixel of a cursor image that points (a `.cur` entry's hotspot),
/// counted from the image's top-left corner.
public struct CursorHotspot: Sendable, Hashable, Codable {
  /// Pixels from the left edge.
  public var x: Int
  /// Pixels from the top edge.
  public var y: Int

  /// Creates a hotspot.
  public init(x: Int, y: Int) {
    self.x = x
    self.y = y
  }
}
