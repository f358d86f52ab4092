import CGTK4
import Magpie

/// A cell's rectangle in a window screenshot, inset so borders and
/// rounding never count, and what it shows there.
struct CellRegion {
  let x: Int
  let y: Int
  let width: Int
  let height: Int

  init(_ bounds: graphene_rect_t) {
    let inset = 6
    x = Int(bounds.origin.x.rounded()) + inset
    y = Int(bounds.origin.y.rounded()) + inset
    width = Int(bounds.size.width.rounded()) - 2 * inset
    height = Int(bounds.size.height.rounded()) - 2 * inset
  }

  /// Whether the region lies inside `pixels`.
  func fits(_ pixels: PixelBuffer) -> Bool {
    width > 0 && height > 0 && x >= 0 && y >= 0 && x + width <= pixels.width && y + height <= pixels.height
  }

  /// "placeholder" (the grey), "error" (the red), "empty" (nothing drawn:
  /// one flat colour) or "image".
  func classify(_ pixels: PixelBuffer) -> String {
    var grey = 0
    var red = 0
    var distinct = Set<UInt32>()
    let total = width * height
    for row in y..<(y + height) {
      for column in x..<(x + width) {
        let pixel = pixels[column, row]
        if near(pixel, 128, 128, 128) { grey += 1 }
        if near(pixel, 200, 40, 60) { red += 1 }
        if distinct.count < 64 {
          distinct.insert(UInt32(pixel.x) << 16 | UInt32(pixel.y) << 8 | UInt32(pixel.z))
        }
      }
    }
    if grey * 10 >= total * 9 { return "placeholder" }
    if red * 10 >= total * 9 { return "error" }
    return distinct.count <= 2 ? "empty" : "image"
  }

  /// Whether more than 1% of the region's pixels differ between the shots.
  func differs(_ first: PixelBuffer, _ second: PixelBuffer) -> Bool {
    var changed = 0
    for row in y..<(y + height) {
      for column in x..<(x + width) where first[column, row] != second[column, row] {
        changed += 1
      }
    }
    return changed * 100 > width * height
  }

  private func near(_ pixel: SIMD4<UInt8>, _ red: Int, _ green: Int, _ blue: Int) -> Bool {
    abs(Int(pixel.x) - red) <= 3 && abs(Int(pixel.y) - green) <= 3 && abs(Int(pixel.z) - blue) <= 3
  }
}
