import Foundation

/// Decodes GIF 87a/89a, still or animated, and encodes still and animated
/// GIFs, with giflib.
///
/// Decoding composites every frame onto the full logical screen as browsers
/// do (see `GIFCompositor`) and reads record by record, so memory is one
/// canvas per decoded frame plus one frame's compressed bytes and a 256 KiB
/// band of indices. giflib parses the records; the LZW data is decompressed
/// by `GIFLZWDecoder`, several times faster than giflib's per-pixel loop. Frame delays follow the browser
/// rule (10 ms or less plays as 100 ms); `loopCount` is the NETSCAPE2.0 value
/// (0 = forever), 1 when the file has none. GIF has no decode-time
/// downsampling, so `targetSize` is ignored.
///
/// The frames are counted from the records before any is decoded, so that
/// an animation over ``DecodeOptions/maxTotalByteCount`` is refused first.
/// Damage after the first frame ends the animation where it is, flagged
/// ``Image/isPartial`` (see ``DecodeOptions/allowsPartialImage``); a file
/// that only lacks its trailer is whole.
///
/// Encoding quantises each frame to at most 256 colours with
/// `GIFColorQuantizer` (Wu's variance-minimising cuts plus k-means
/// refinement), optionally with Floyd-Steinberg dithering; alpha below 128
/// becomes the transparent index. See `GIFWriter`.
public struct GIFCoder: ImageCoder {
  /// Whether encoding diffuses quantisation error (Floyd-Steinberg). Smoother
  /// gradients, larger files; has no effect on images of 256 colours or fewer.
  public var dithers: Bool

  /// Creates the coder; encoding dithers.
  public init() {
    dithers = true
  }

  /// Creates the coder, choosing whether encoding dithers.
  public init(dithers: Bool) {
    self.dithers = dithers
  }

  /// True for GIF data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .gif }

  /// Decodes every frame (or the first, as `options` say), composited.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    var image = try GIFCoder.decode(data, options: options)
    image.scale = options.scale
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads the size, frame count, loop count and delays by walking the
  /// records, without decompressing any pixels. Like decoding, it counts
  /// frames up to damage after the first (see ``decode(_:options:)``).
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let layout = try GIFLayout(walking: data)
    if layout.frameCount == 1 {
      return ImageInfo(format: .gif, size: layout.canvas, byteCount: data.count)
    }
    return ImageInfo(
      format: .gif, size: layout.canvas, frameCount: layout.frameCount, loopCount: layout.loopCount ?? 1,
      frameDurations: layout.delays.map { ImageFrame.browserDuration(milliseconds: $0) }, byteCount: data.count)
  }

  /// A frame source for an animated GIF (more than one frame), `nil` for a
  /// still; see ``GIFFrameSource``.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    try GIFFrameSource.make(data: data, options: options)
  }

  /// True for ``ImageFormat/gif``.
  public func canEncode(to format: ImageFormat) -> Bool { format == .gif }

  /// Encodes `image` (every frame unless `options.firstFrameOnly`) as GIF.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .gif else { throw MagpieError(.encodingFailed, "GIFCoder does not encode \(format.rawValue)") }
    var frames = try EncodingFrames(image, firstFrameOnly: options.firstFrameOnly)
    return try GIFWriter.encode(frames: &frames, dithers: dithers)
  }

  private static func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    // Refuse a huge declared screen from the header bytes, before giflib
    // reads anything (the global colour table included).
    if data.count >= 10 {
      let b = data.startIndex
      let screen = PixelSize(
        width: Int(data[b + 6]) | Int(data[b + 7]) << 8, height: Int(data[b + 8]) | Int(data[b + 9]) << 8)
      if screen.width > 0 && screen.height > 0 { try options.checkPixelLimit(decoded: screen, declared: screen) }
    }
    // Count the frames from the records first, so that an animation over
    // the all-frames limit is refused before any canvas is made.
    // The walk stops one frame past the frame limit: enough to refuse.
    let deadline = options.startDeadline()
    let layout = try GIFLayout(
      walking: data,
      frameLimit: options.firstFrameOnly ? 1 : options.frameCountToRefuse)
    try options.checkPixelLimit(decoded: layout.canvas, declared: layout.canvas)
    let frameCount = options.firstFrameOnly ? 1 : layout.frameCount
    try options.checkFrameCount(frameCount, format: "gif")
    try options.checkAnimationByteLimit(format: "gif", frameCount: frameCount, canvas: layout.canvas)
    return try GIFFileReader.withReader(data) { reader throws(MagpieError) -> Image in
      let canvas = GIFCompositor(width: layout.canvas.width, height: layout.canvas.height)
      let lzw = GIFLZWDecoder()
      var compressed: [UInt8] = []
      let band = GIFFrameDecoder.allocateBand()
      defer { band.deallocate() }
      var frames: [ImageFrame] = []
      frames.reserveCapacity(frameCount)
      var delays: [Int] = []
      var declaredPixels = 0
      // Why the frames end early, once a later frame or record is damaged.
      var damage: MagpieError?
      // The same records as the walk above, so never more than it counted.
      while frames.count < frameCount, let frame = try reader.nextFrame() {
        let index = reader.frameCount
        // LZW work is bounded by what frames declare, not by what shows; a
        // small file can declare huge off-canvas frames, so cap the total at
        // twice what the byte limit allows to be shown.
        declaredPixels += frame.width * frame.height
        if declaredPixels > max(options.maxTotalByteCount / 2, 4 * canvas.width * canvas.height) {
          throw MagpieError(
            .imageTooLarge, "gif frames declare \(declaredPixels) pixels by frame \(index), more than the limits allow")
        }
        let lzwDamaged = try GIFFrameDecoder.draw(
          frame, index: index, from: reader, onto: canvas, lzw: lzw, band: band, compressed: &compressed,
          deadline: deadline)
        if index == 1, let damage = reader.damage { throw damage }
        if lzwDamaged && index == 1 {
          throw MagpieError(.corruptData, "gif frame 1's compressed pixel data is damaged")
        }
        frames.append(ImageFrame(pixels: canvas.snapshot()))
        delays.append(frame.delayCentiseconds * 10)
        // Browsers keep a damaged later frame as drawn so far and stop there.
        if let cut = reader.damage {
          damage = cut
        } else if lzwDamaged {
          damage = MagpieError(.corruptData, "gif frame \(index)'s compressed pixel data is damaged")
        }
        if damage != nil { break }
      }
      // So does a bad record after the last frame (met by nextFrame, or by
      // the walk when every counted frame was decoded); with firstFrameOnly
      // nothing after frame 1 counts.
      damage = damage ?? reader.damage ?? (options.firstFrameOnly ? nil : layout.damage)
      if let damage, !options.allowsPartialImage { throw damage }
      let isPartial = damage != nil
      let still = frames.count == 1
      if !still { for i in frames.indices { frames[i].duration = ImageFrame.browserDuration(milliseconds: delays[i]) } }
      var image = Image(
        frames: frames, loopCount: still ? 0 : reader.loopCount ?? 1, format: .gif, isPartial: isPartial)
      // The registry converts (or keeps) the colours.
      image.colorProfile = (reader.iccData ?? layout.colorProfile?.iccData).map { ColorProfile(iccData: $0) }
      return image
    }
  }

  /// The image row of the `sequence`-th stored row of an interlaced frame:
  /// every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
  static func interlacedRow(_ sequence: Int, height: Int) -> Int {
    let pass1 = (height + 7) / 8
    if sequence < pass1 { return sequence * 8 }
    let pass2 = (height + 3) / 8
    if sequence < pass1 + pass2 { return 4 + (sequence - pass1) * 8 }
    let pass3 = (height + 1) / 4
    if sequence < pass1 + pass2 + pass3 { return 2 + (sequence - pass1 - pass2) * 4 }
    return 1 + (sequence - pass1 - pass2 - pass3) * 2
  }
}
