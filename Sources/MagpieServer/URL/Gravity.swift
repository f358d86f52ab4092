/// Which part of an image a crop keeps (imgproxy's `g:` option).
public enum Gravity: Sendable, Hashable {
  /// An edge or corner (or the centre), with an offset from it toward the
  /// image's centre (right and down for the centre itself): CSS pixels
  /// (times the device pixel ratio) when 1 or more in magnitude, a
  /// fraction of the image's side when less, as imgproxy reads it.
  case anchor(GravityAnchor, xOffset: Double = 0, yOffset: Double = 0)
  /// `sm`: the region with the most detail (highest entropy).
  case smart
  /// `fp:X:Y`: keep the point at fractions `x`, `y` (0-1) of the width and
  /// height as close to the centre as the crop allows.
  case focusPoint(x: Double, y: Double)

  /// The centre, no offset: the default.
  public static let center = Gravity.anchor(.center)
}
