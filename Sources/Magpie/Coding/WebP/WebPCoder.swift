import Foundation

/// Decodes and encodes WebP (lossy, lossless, alpha, animated) with libwebp,
/// libwebpdemux and libwebpmux.
///
/// Still images decode straight into the final buffer and shrink inside
/// libwebp when `options.targetSize` is set (see
/// `WebPDecoder.decodeStill(_:orientation:options:)`). Animations are
/// composited by libwebp's animation decoder at full size (it cannot scale)
/// and their frame durations follow the browser rule. The `EXIF` chunk's
/// orientation is applied to every frame when `options.appliesOrientation`,
/// as Chrome and Firefox do. ``PixelBuffer/isOpaque`` is set when the pixels
/// have no alpha.
///
/// Encoding writes lossy WebP at `options.quality`, or lossless when
/// `options.lossless`; animations keep their loop count and frame durations.
public struct WebPCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for WebP data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .webp }

  /// Decodes the image, or every frame of an animation (the first only when
  /// `options.firstFrameOnly`).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    var image = try WebPCoder.decode(data, options: options)
    image.scale = options.scale
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads size, frame count, loop count, delays and orientation from the
  /// container without decoding pixels.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    try WebPContainer.withContainer(data) { container, _ throws(MagpieError) -> ImageInfo in
      let stored = PixelSize(width: container.width, height: container.height)
      let size = container.orientation.displayedSize(of: stored)
      guard container.isAnimated && container.frameCount > 1 else {
        return ImageInfo(format: .webp, size: size, orientation: container.orientation, byteCount: data.count)
      }
      return ImageInfo(
        format: .webp, size: size, frameCount: container.frameCount, loopCount: container.loopCount,
        frameDurations: container.frameDurations().map { ImageFrame.browserDuration(milliseconds: $0) },
        orientation: container.orientation, byteCount: data.count)
    }
  }

  /// A frame source for an animated WebP of more than one frame, `nil` for
  /// a still; see ``WebPFrameSource``.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    try WebPFrameSource.make(data: data, options: options)
  }

  /// True for ``ImageFormat/webp``.
  public func canEncode(to format: ImageFormat) -> Bool { format == .webp }

  /// Encodes `image` as WebP: lossy at `options.quality` or lossless, every
  /// frame unless `options.firstFrameOnly`.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .webp else { throw MagpieError(.encodingFailed, "WebPCoder does not encode \(format.rawValue)") }
    var frames = try EncodingFrames(image, firstFrameOnly: options.firstFrameOnly)
    return try WebPEncoder.encode(frames: &frames, options: options)
  }

  private static func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    try WebPContainer.withContainer(data) { container, bytes throws(MagpieError) -> Image in
      var image = try decode(container: container, bytes: bytes, options: options)
      // The registry converts (or keeps) the colours.
      image.colorProfile = container.colorProfile
      return image
    }
  }

  private static func decode(
    container: WebPContainer, bytes: UnsafeRawBufferPointer, options: DecodeOptions
  ) throws(MagpieError) -> Image {
    let orientation = container.orientation
    let turn = options.appliesOrientation ? orientation : .up
    if container.isAnimated {
      var frames = try WebPDecoder.decodeAnimation(container: container, options: options)
      if turn != .up { for i in frames.indices { frames[i].pixels = frames[i].pixels.applying(turn) } }
      if frames.count == 1 {
        frames[0].duration = .zero
        return Image(frames: frames, loopCount: 0, format: .webp, orientation: orientation)
      }
      return Image(frames: frames, loopCount: container.loopCount, format: .webp, orientation: orientation)
    }
    // libwebp decodes a still in one call: the limit is checked before it.
    try options.startDeadline().check("the webp image")
    let pixels = try WebPDecoder.decodeStill(bytes, orientation: turn, options: options)
    return Image(
      frames: [ImageFrame(pixels: pixels.applying(turn))], loopCount: 0, format: .webp, orientation: orientation)
  }
}
