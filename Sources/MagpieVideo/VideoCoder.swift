import Foundation
import Magpie

/// Poster frames of videos through FFmpeg's libavformat and libavcodec
/// (`MagpieVideo`, built where Debian's libavformat-dev, libavcodec-dev and
/// libswscale-dev are installed; FFmpeg is opened on the first video).
///
/// An MP4, MOV, WebM or Matroska file decodes as one image: its first frame,
/// or the first at or after `DecodeOptions.posterTime`
/// (`ImageRequest.posterTime`; the last frame when the time is past the
/// end), scaled by swscale straight to the size `DecodeOptions.targetSize`
/// needs (area averaging when shrinking), opaque RGBA in sRGB from the
/// stream's own matrix and range. A phone video's display rotation is
/// applied as an EXIF orientation would be. The video's duration, frame
/// rate and codec are in `Image.metadata` (`ImageMetadata.video`) and
/// `ImageInfo.video`. Processors and caches work as for images.
///
/// Safety: Magpie fetches the bytes; FFmpeg reads them from memory only.
/// Only the MP4/MOV and Matroska/WebM demuxers are allowed, and a demuxer
/// that asks to open another file or URL (a reference movie, a playlist) is
/// refused. The coded frame size is checked against the pixel limit before
/// the decoder opens (and the decoder's own `max_pixels` is set to it); the
/// decode time limit interrupts FFmpeg's reads and decoding.
public struct VideoCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for MP4, MOV and WebM/Matroska data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format.isVideo }

  /// The poster frame (see the type's description).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let deadline = options.startDeadline()
    let video = try VideoFile(data, limit: options.decodeTimeLimit)
    try deadline.check("the video's container")
    let coded = video.size
    try options.checkPixelLimit(decoded: coded, declared: coded)
    let orientation = video.orientation
    var output = coded
    if let needed = options.requiredStoredSize(for: coded, orientation: orientation),
      needed.width < coded.width || needed.height < coded.height
    {
      output = PixelSize(
        width: max(1, min(needed.width, coded.width)), height: max(1, min(needed.height, coded.height)))
    }
    let time = options.posterTime.map { max(.zero, $0) } ?? .zero
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    let pixels = try video.frame(at: seconds, maxPixels: options.maxPixelCount, scaledTo: output)
    let turned = options.appliesOrientation ? pixels.applying(orientation) : pixels
    var image = Image(
      frames: [ImageFrame(pixels: turned)], format: ImageFormat.sniff(data), scale: options.scale,
      orientation: orientation)
    var metadata = ImageMetadata()
    metadata.video = video.metadata(frameTime: time)
    image.metadata = metadata
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// The frame size (upright), duration, frame rate and codec, from the
  /// container alone.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let video = try VideoFile(data, limit: DecodeOptions.defaultDecodeTimeLimit)
    guard video.size.width > 0, video.size.height > 0 else {
      throw MagpieError(.corruptData, "video declares an empty frame size \(video.size)")
    }
    var info = ImageInfo(
      format: ImageFormat.sniff(data), size: video.orientation.displayedSize(of: video.size),
      orientation: video.orientation, byteCount: data.count)
    info.video = video.metadata(frameTime: .zero)
    return info
  }
}
