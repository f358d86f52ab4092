/// The nine anchors of ``Gravity/anchor(_:xOffset:yOffset:)``, named as
/// imgproxy names them in URLs.
public enum GravityAnchor: String, Sendable, Hashable, CaseIterable {
  /// `ce`
  case center = "ce"
  /// `no`: the top edge.
  case north = "no"
  /// `so`: the bottom edge.
  case south = "so"
  /// `ea`: the right edge.
  case east = "ea"
  /// `we`: the left edge.
  case west = "we"
  /// `noea`: the top right corner.
  case northEast = "noea"
  /// `nowe`: the top left corner.
  case northWest = "nowe"
  /// `soea`: the bottom right corner.
  case southEast = "soea"
  /// `sowe`: the bottom left corner.
  case southWest = "sowe"
}
