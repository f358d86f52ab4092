/// One of the images a file holds side by side, each of its own size: an
/// icon's entries, a TIFF's pages (see ``MultiImageCoder``).
public struct SubimageInfo: Sendable, Equatable {
  /// Its size in pixels, as its own header declares it.
  public var size: PixelSize
  /// Bits per pixel as stored (32 for RGBA, 8 for a palette...); 0 when the
  /// header does not say.
  public var bitsPerPixel: Int
  /// A cursor's hotspot, the pixel that points, from the top-left corner;
  /// `nil` for icons and other images.
  public var hotspot: CursorHotspot?

  /// Creates a record.
  public init(size: PixelSize, bitsPerPixel: Int, hotspot: CursorHotspot? = nil) {
    self.size = size
    self.bitsPerPixel = bitsPerPixel
    self.hotspot = hotspot
  }
}
