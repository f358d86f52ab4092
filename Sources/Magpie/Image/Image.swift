import Foundation

/// A decoded image: one or more upright frames of RGBA pixels (straight alpha
/// as decoded; premultiplied once resized, blurred or composited; see
/// ``PixelBuffer/alphaRepresentation``),
/// plus what a view and a cache need to know about where it came from.
///
/// An animation decoded with ``DecodeOptions/decodesFramesOnDemand`` holds
/// only its poster frame in ``frames`` and carries the rest as an
/// ``animation`` that decodes frames while it plays; still-image code sees
/// the poster.
public struct Image: Sendable {
  /// The frames in play order; a still image has exactly one.
  public var frames: [ImageFrame]
  /// How many times an animation plays; 0 means forever. 0 for still images.
  public var loopCount: Int
  /// The format the image was decoded from (``ImageFormat/unknown`` when it
  /// was made in memory).
  public var format: ImageFormat
  /// Display scale: pixels per point (1, 2 or 3; from `@2x`/`@3x` names when
  /// asked).
  public var scale: Double
  /// The EXIF orientation the source carried. The pixels already have it
  /// applied; this is kept for callers that want to know or re-encode it.
  public var orientation: ImageOrientation
  /// True when the source ended early or was damaged and only part of the
  /// image could be decoded (a truncated JPEG, a GIF damaged after its first
  /// frame, or a progressive pass while loading).
  public var isPartial: Bool
  /// The encoded bytes the image was decoded from, when the decoder was asked
  /// to keep them (caches store these instead of re-encoding).
  public var originalData: Data?
  /// The animation to play, when its frames are decoded on demand instead
  /// of held in ``frames`` (which then holds its poster frame).
  public var animation: AnimatedImage?
  /// The colour profile the pixels are in, when it is not sRGB and was kept
  /// (``ColorManagement/preserve``); `nil` means sRGB (or untagged, which
  /// is taken as sRGB).
  public var colorProfile: ColorProfile?
  /// The EXIF and XMP of the file, when decoded with
  /// ``DecodeOptions/keepsMetadata``.
  public var metadata: ImageMetadata?

  /// Creates an image from frames. `frames` must not be empty and all frames
  /// must share one size.
  public init(
    frames: [ImageFrame], loopCount: Int = 0, format: ImageFormat = .unknown, scale: Double = 1,
    orientation: ImageOrientation = .up, isPartial: Bool = false, originalData: Data? = nil
  ) {
    precondition(!frames.isEmpty, "an image needs at least one frame")
    precondition(frames.allSatisfy { $0.pixels.size == frames[0].pixels.size }, "frames differ in size")
    self.frames = frames
    self.loopCount = loopCount
    self.format = format
    self.scale = scale
    self.orientation = orientation
    self.isPartial = isPartial
    self.originalData = originalData
  }

  /// The image of an animation decoded on demand: its poster frame, and
  /// `animation` to play.
  public init(animation: AnimatedImage, scale: Double = 1) {
    self.init(
      frames: [ImageFrame(pixels: animation.posterFrame, duration: animation.frameDurations[0])],
      loopCount: animation.loopCount, format: animation.format, scale: scale)
    self.animation = animation
  }

  /// A still image of one buffer.
  public init(pixels: PixelBuffer, format: ImageFormat = .unknown, scale: Double = 1) {
    self.init(frames: [ImageFrame(pixels: pixels)], format: format, scale: scale)
  }

  /// The first frame's pixels, what a still view shows.
  public var pixels: PixelBuffer { frames[0].pixels }

  /// Size in pixels (upright).
  public var pixelSize: PixelSize { frames[0].pixels.size }

  /// Size in points: pixels divided by ``scale``.
  public var size: (width: Double, height: Double) {
    (Double(pixelSize.width) / scale, Double(pixelSize.height) / scale)
  }

  /// Whether the image has more than one frame, decoded or on demand.
  public var isAnimated: Bool { frames.count > 1 || animation != nil }

  /// Whether this is an on-demand animation with processors on its frames.
  var isProcessedAnimation: Bool { animation.map { !$0.processors.isEmpty } ?? false }

  /// Decoded bytes of all frames, plus what an on-demand ``animation``
  /// holds (``AnimatedImage/retainedByteCount``): the cost a memory cache
  /// charges.
  public var byteCount: Int {
    frames.reduce(animation?.retainedByteCount ?? 0) { $0 + $1.pixels.byteCount }
  }

  /// The scale a file name asks for: 3 for `name@3x.png`, 2 for `@2x`, else 1.
  public static func scale(fromFileName name: String) -> Double {
    let base = name.split(separator: "/").last.map(String.init) ?? name
    let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
    if stem.hasSuffix("@3x") { return 3 }
    if stem.hasSuffix("@2x") { return 2 }
    return 1
  }
}
