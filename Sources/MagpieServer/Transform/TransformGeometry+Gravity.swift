import Magpie

extension TransformGeometry {
  /// The top-left corner of the ``cropSize`` window in the scaled, turned
  /// image that `gravity` picks, as imgproxy's `calcPosition` places it;
  /// `nil` for ``Gravity/smart``, which needs the pixels (see
  /// `SmartCrop`).
  ///
  /// An anchor's offsets of 1 or more (in magnitude) are CSS pixels times
  /// ``pixelRatio``; smaller ones are fractions of the scaled image's side.
  /// Both round half to even. A positive offset moves the window away from
  /// the anchored edge (right or down for the centre). A focus point is
  /// the fractions `x`, `y` of the scaled image, rounded half to even, and
  /// the window is centred on it (its left half rounded down). Every
  /// window is then moved inside the image.
  public func cropOrigin(for gravity: Gravity) -> (x: Int, y: Int)? {
    let image = turnedSize
    let (w, h) = (cropSize.width, cropSize.height)
    var left: Int
    var top: Int
    switch gravity {
    case .smart:
      return nil
    case .focusPoint(let fx, let fy):
      left = Self.scaleToEven(image.width, fx) - w / 2
      top = Self.scaleToEven(image.height, fy) - h / 2
    case .anchor(let anchor, let xOffset, let yOffset):
      let offX = offset(xOffset, side: image.width)
      let offY = offset(yOffset, side: image.height)
      left = Int((Double(image.width - w + 1) / 2).rounded(.toNearestOrEven)) + offX
      top = Int((Double(image.height - h + 1) / 2).rounded(.toNearestOrEven)) + offY
      switch anchor {
      case .north, .northEast, .northWest: top = offY
      case .south, .southEast, .southWest: top = image.height - h - offY
      case .center, .east, .west: break
      }
      switch anchor {
      case .west, .northWest, .southWest: left = offX
      case .east, .northEast, .southEast: left = image.width - w - offX
      case .center, .north, .south: break
      }
    }
    return (min(max(0, left), image.width - w), min(max(0, top), image.height - h))
  }

  private func offset(_ value: Double, side: Int) -> Int {
    guard value.isFinite else { return 0 }
    if abs(value) >= 1 {
      let scaled = (value * pixelRatio).rounded(.toNearestOrEven)
      return Int(max(-1e15, min(1e15, scaled)))
    }
    return Int((Double(side) * value).rounded(.toNearestOrEven))
  }
}
