/// The size a size-aware load asks for (see
/// ``ImageBinding/loadsAtDisplaySize``): the target's pixel size rounded
/// down to a multiple of ``step`` on each axis (at most 7 pixels short), so that widgets a few
/// pixels apart share one request key (and one cached image), and a
/// resize within a step loads nothing. Rounding down keeps what a target
/// holds at most its own pixels; the last few pixels are the toolkit's to
/// scale.
struct DisplaySizeBucket: Equatable {
  /// The rounding step, in pixels.
  static let step = 8

  /// The size asked for.
  let size: PixelSize
  /// How the image meets it.
  let mode: ImageProcessors.Resizing.Mode

  /// The bucket of a target `size` pixels big showing images as `mode` says.
  init(containing size: PixelSize, mode: ImageProcessors.Resizing.Mode) {
    func rounded(_ value: Int) -> Int { max(Self.step, value / Self.step * Self.step) }
    self.size = PixelSize(width: rounded(size.width), height: rounded(size.height))
    self.mode = mode
  }

  /// Whether an image made for `self` would be smaller than `other` needs
  /// on either axis: a target grown into `other` loads again.
  func isSmaller(than other: DisplaySizeBucket) -> Bool {
    other.size.width > size.width || other.size.height > size.height
  }

  /// What a request gets to come out at this size: fitted inside it
  /// (never enlarged) or filling it exactly, cropped.
  var processor: any ImageProcessor {
    switch mode {
    case .fit: ImageProcessors.Downsampling(size: size)
    case .fill, .stretch: ImageProcessors.Resizing(size: size, mode: mode)
    }
  }
}
