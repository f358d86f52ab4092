import Magpie

/// Results in a format without alpha (JPEG) are flattened first: onto the
/// URL's `bg:` colour, else white, as imgproxy and browsers show them.
/// Without it the encoder would keep the colour values under transparent
/// pixels, often black.
enum OpaqueOutput {
  /// `image` with every frame flattened onto `background` when `format`
  /// has no alpha and a frame is not opaque; `image` itself otherwise.
  static func prepared(_ image: Image, for format: ImageFormat, background: RGBAColor?) -> Image {
    guard format == .jpeg, image.frames.contains(where: { !$0.pixels.isOpaque }) else { return image }
    var flattened = image
    let color = (background ?? .white).premultiplied
    flattened.frames = image.frames.map { frame in
      let canvas = frame.pixels.placed(
        on: frame.pixels.size, atX: 0, y: 0, background: SIMD4(color[0], color[1], color[2], 255))
      return ImageFrame(pixels: canvas, duration: frame.duration)
    }
    return flattened
  }
}
