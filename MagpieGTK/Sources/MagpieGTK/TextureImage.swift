import CGTK4
import CMagpieGTK
import Magpie

/// The texture of an image's first frame, or of one animation frame.
enum TextureImage {
  /// A reference to a new texture of `image`'s first frame.
  static func texture(of image: Image?) -> GObjectRef? {
    guard let image, !image.frames.isEmpty else { return nil }
    return texture(of: image.pixels)
  }

  /// A reference to a new texture of `pixels`.
  static func texture(of pixels: PixelBuffer) -> GObjectRef? {
    TextureFactory.texture(for: pixels).map { GObjectRef(adopting: UnsafeMutableRawPointer($0)) }
  }
}
