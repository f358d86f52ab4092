/// Space around a result in CSS pixels (multiplied by the device pixel
/// ratio), as imgproxy's `pd:TOP:RIGHT:BOTTOM:LEFT` gives it.
public struct Padding: Sendable, Hashable {
  /// Rows added above.
  public var top: Int
  /// Columns added on the right.
  public var right: Int
  /// Rows added below.
  public var bottom: Int
  /// Columns added on the left.
  public var left: Int

  /// Padding of these widths; none by default.
  public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }

  /// Whether every side is 0.
  public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
}
