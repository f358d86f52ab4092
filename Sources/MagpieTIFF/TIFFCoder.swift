import Foundation
import Magpie

/// Decodes TIFF with libtiff, from memory: strips and tiles; bilevel, grey
/// and palette of 1 to 16 bits, RGB and RGBA (associated alpha divided back
/// to straight), CMYK (naive conversion), YCbCr; uncompressed, LZW,
/// Deflate, PackBits, JPEG and the other codecs libtiff was built with.
/// 16-bit samples are reduced to 8 as libtiff does (see `TIFFRaster`).
///
/// Each page (directory) is a frame of zero duration, loop count 0; pages
/// whose size or orientation differs from the first page's are left out,
/// since an image's frames share one size, and reached as subimages
/// (`MultiImageCoder`: every page at its own size, as `magpie decode`
/// writes them). `firstFrameOnly` reads the first page only. The Orientation tag is reported in `Image.orientation` and
/// applied when `options.appliesOrientation`.
///
/// With `options.targetSize` set and one page to decode, the smallest
/// reduced-resolution copy of the first page that still covers
/// `DecodeOptions.requiredStoredSize(for:orientation:)` is decoded
/// instead (a later directory whose NewSubfileType says reduced, or a
/// SubIFD of the page's shape); otherwise the full page.
///
/// Limits come before pixel memory: every page's declared size is checked
/// against `DecodeOptions.maxPixelCount`, all pages together against
/// `DecodeOptions.maxTotalByteCount`, their number against
/// `DecodeOptions.maxFrameCount`, and a directory declaring more strips or
/// tiles than the file could locate is refused; libtiff itself may allocate
/// at most 8 bytes per allowed pixel at once. The decode deadline is
/// checked between bands of rows. The ICC profile is attached as
/// `Image.colorProfile` (not for CMYK), unconverted: the registry
/// converts centrally.
public struct TIFFCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for TIFF data, BigTIFF included (which the core's sniffing does
  /// not know: its header's version is 43 instead of 42).
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool {
    format == .tiff || data.starts(with: [0x49, 0x49, 0x2B, 0x00]) || data.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
  }

  /// Decodes every page (the first only with `options.firstFrameOnly`), or
  /// a reduced copy of the first that covers `options.targetSize`.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let deadline = options.startDeadline()
    var image = try TIFFFile.with(data, options: options) { file throws(MagpieError) -> Image in
      let pageLimit = options.firstFrameOnly ? 1 : options.frameCountToRefuse
      let targeted = options.targetSize != nil
      let layout = try TIFFLayout(file, pageLimit: pageLimit, findsReductions: targeted, deadline: deadline)
      if !options.firstFrameOnly { try options.checkFrameCount(layout.pages.count, format: "tiff") }
      let first = layout.pages[0]
      var sources = layout.frames
      if sources.count == 1, let needed = options.requiredStoredSize(for: first.size, orientation: first.orientation) {
        sources = [layout.source(covering: needed)]
      }
      for source in sources { try options.checkPixelLimit(decoded: source.size, declared: first.size) }
      try options.checkAnimationByteLimit(format: "tiff", frameCount: sources.count, canvas: sources[0].size)
      try file.select(first.location)
      let profile = first.colorProfile(file)
      var frames: [ImageFrame] = []
      var isPartial = false
      for (index, source) in sources.enumerated() {
        try deadline.check("tiff page \(index)")
        try file.select(source.location)
        let (pixels, partial) = try TIFFRaster.decode(file, source, options: options, deadline: deadline)
        let turn = options.appliesOrientation ? source.orientation : .up
        frames.append(ImageFrame(pixels: pixels.applying(turn)))
        // A damaged page ends the image there, as a damaged GIF frame does.
        isPartial = partial
        if partial { break }
      }
      var image = Image(
        frames: frames, loopCount: 0, format: .tiff, orientation: first.orientation, isPartial: isPartial)
      // The registry converts (or keeps) the colours.
      image.colorProfile = profile
      return image
    }
    image.scale = options.scale
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads the first page's size (upright) and orientation and counts the
  /// pages that decode as frames, from the tags alone; more pages than
  /// `DecodeOptions.defaultMaxFrameCount` is an error, as decoding
  /// them would be.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let options = DecodeOptions()
    return try TIFFFile.with(data, options: options) { file throws(MagpieError) -> ImageInfo in
      let layout = try TIFFLayout(
        file, pageLimit: options.frameCountToRefuse, findsReductions: false, deadline: options.startDeadline())
      try options.checkFrameCount(layout.pages.count, format: "tiff")
      let first = layout.pages[0]
      let upright = first.orientation.displayedSize(of: first.size)
      guard upright.width > 0, upright.height > 0 else {
        throw MagpieError(.corruptData, "tiff: image declares an empty size \(first.size)")
      }
      let frames = layout.frames.count
      return ImageInfo(
        format: .tiff, size: upright, frameCount: frames, frameDurations: Array(repeating: .zero, count: frames),
        orientation: first.orientation, byteCount: data.count)
    }
  }
}
