import Magpie

extension TransformOptions {
  /// `g:TYPE:X:Y`. A new anchor keeps the offsets of a current anchor (as
  /// imgproxy keeps them); a focus point's missing coordinates keep the
  /// current focus point's, or the centre (0.5). An empty type keeps the
  /// current kind of gravity.
  mutating func applyGravity(_ arguments: [String], as name: String) throws(TransformURLError) {
    let type = arguments[0]
    let given = arguments.dropFirst().map { $0.isEmpty ? nil : $0 }
    switch (type, gravity) {
    case ("sm", _), ("", .smart):
      guard given.isEmpty else { throw .option(name, "sm takes no offsets") }
      gravity = .smart
    case ("fp", _), ("", .focusPoint):
      var (x, y) = (0.5, 0.5)
      if case .focusPoint(let currentX, let currentY) = gravity { (x, y) = (currentX, currentY) }
      if let text = given.first ?? nil { x = try OptionArgument.number(text, option: name, in: 0...1) }
      if given.count > 1, let text = given[1] { y = try OptionArgument.number(text, option: name, in: 0...1) }
      gravity = .focusPoint(x: x, y: y)
    default:
      var (anchor, x, y) = (GravityAnchor.center, 0.0, 0.0)
      if case .anchor(let currentAnchor, let currentX, let currentY) = gravity {
        (anchor, x, y) = (currentAnchor, currentX, currentY)
      }
      if !type.isEmpty {
        guard let named = GravityAnchor(rawValue: type) else {
          throw .option(name, "`\(type.prefix(40))` is not ce, no, so, ea, we, noea, nowe, soea, sowe, sm or fp")
        }
        anchor = named
      }
      let limit = TransformURLLimits.maximumGravityOffset
      if let text = given.first ?? nil { x = try OptionArgument.number(text, option: name, in: -limit...limit) }
      if given.count > 1, let text = given[1] { y = try OptionArgument.number(text, option: name, in: -limit...limit) }
      gravity = .anchor(anchor, xOffset: x, yOffset: y)
    }
  }

  /// `pd:TOP:RIGHT:BOTTOM:LEFT` read as imgproxy reads it, which gives
  /// CSS's shorthand: the first value sets every side, the second right
  /// and left, the third bottom, the fourth left; empty ones are skipped.
  mutating func applyPadding(_ arguments: [String], as name: String) throws(TransformURLError) {
    let range = 0...TransformURLLimits.maximumPadding
    var sides = [Int?]()
    for text in arguments {
      sides.append(text.isEmpty ? nil : try OptionArgument.integer(text, option: name, in: range))
    }
    if let all = sides[0] { padding = Padding(top: all, right: all, bottom: all, left: all) }
    if sides.count > 1, let horizontal = sides[1] { (padding.right, padding.left) = (horizontal, horizontal) }
    if sides.count > 2, let bottom = sides[2] { padding.bottom = bottom }
    if sides.count > 3, let left = sides[3] { padding.left = left }
  }

  /// `bg:RRGGBB` or `bg:R:G:B` (0-255 each; an empty channel keeps the
  /// current colour's, black without one); `bg:` alone removes the
  /// background, as imgproxy does.
  mutating func applyBackground(_ arguments: [String], as name: String) throws(TransformURLError) {
    switch arguments.count {
    case 1:
      let text = arguments[0]
      guard !text.isEmpty else {
        background = nil
        return
      }
      guard text.utf8.count == 6, text.utf8.allSatisfy({ HexDigit.value($0) != nil }),
        let value = UInt32(text, radix: 16)
      else { throw .option(name, "`\(text.prefix(40))` is not a hex colour RRGGBB") }
      background = RGBAColor(hex: value)
    case 3:
      var color = background ?? .black
      func channel(_ index: Int) throws(TransformURLError) -> UInt8? {
        let text = arguments[index]
        return text.isEmpty ? nil : UInt8(try OptionArgument.integer(text, option: name, in: 0...255))
      }
      color.red = try channel(0) ?? color.red
      color.green = try channel(1) ?? color.green
      color.blue = try channel(2) ?? color.blue
      color.alpha = 255
      background = color
    default:
      throw .option(name, "takes RRGGBB or R:G:B, got \(arguments.count) arguments")
    }
  }
}
