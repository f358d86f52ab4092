import Magpie

extension PixelBuffer {
  /// These pixels drawn (composited over) at `x`, `y` on a canvas of
  /// `size` filled with `background` (a premultiplied pixel) or left
  /// transparent: the transform's padding and `bg:` flattening, and the
  /// opaque canvas a JPEG result is flattened onto.
  func placed(on size: PixelSize, atX x: Int, y: Int, background: SIMD4<UInt8>?) -> PixelBuffer {
    var canvas = PixelBuffer(width: size.width, height: size.height)
    if let background { canvas.fill(background) }
    canvas.draw(self, atX: x, y: y)
    return canvas
  }
}
