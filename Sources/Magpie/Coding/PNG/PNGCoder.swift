import CMagpieCodecs
import Foundation

/// Decodes PNG and APNG through libpng; encodes PNG.
///
/// The common web image (8 bits a sample, not interlaced, gray, RGB,
/// palette, gray+alpha or RGBA) takes a fast path instead: libdeflate
/// inflates the image data and SIMD code unfilters it straight into the
/// final buffer. It gives libpng's pixels exactly, and hands any stream it
/// is unsure of to libpng, so errors are libpng's too.
///
/// Every bit depth and colour type comes out as straight-alpha RGBA8, the
/// stored values exactly (premultiplied only when `targetSize` means the
/// pixels will be resampled, see ``DecodeOptions/targetSize``): 16-bit
/// samples are scaled to 8 bits with rounding, palettes and tRNS become an
/// alpha channel, gray becomes RGB. The colour chunks (iCCP, or cHRM with
/// gAMA) become ``Image/colorProfile`` and leave the values as stored; the
/// registry converts them to sRGB unless ``ColorManagement/preserve`` (see
/// `PNGColorChunks`). An `eXIf` orientation before
/// the image data is applied, as browsers do. APNG frames are composited onto
/// the full canvas with their dispose and blend ops; an APNG whose animation
/// chunks contradict each other decodes, as browsers show it, as a still of
/// its default image (see `APNGAnimation`).
public struct PNGCoder: ImageCoder {
  /// Whether common 8-bit images may take the fast path (see ``PNGReader``);
  /// tests turn it off to compare with libpng alone.
  var usesFastPath = true

  /// Creates the coder.
  public init() {}

  /// True for PNG and APNG data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool {
    format == .png || format == .apng
  }

  /// Decodes a PNG, or every frame of an APNG (the first only when
  /// `options.firstFrameOnly`; it keeps its delay and the loop count).
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    var image = try Self.withBytes(of: data) { (bytes) throws(MagpieError) -> Image in
      try decode(bytes: bytes, options: options)
    }
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Size, orientation and, for an APNG, frame count, loop count and delays,
  /// from the chunks alone.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    try Self.withBytes(of: data) { (bytes) throws(MagpieError) -> ImageInfo in
      let preamble = PNGPreamble(scanning: bytes)
      let header = try Self.readHeader(of: PNGReader(bytes), preamble: preamble)
      let size = preamble.orientation.displayedSize(of: header.size)
      guard preamble.isAnimated else {
        return ImageInfo(format: .png, size: size, orientation: preamble.orientation, byteCount: bytes.count)
      }
      let animation = try APNGAnimation(parsing: bytes, canvas: header.size)
      if animation.stillReason != nil {
        return ImageInfo(format: .apng, size: size, orientation: preamble.orientation, byteCount: bytes.count)
      }
      return ImageInfo(
        format: .apng, size: size, frameCount: animation.frames.count, loopCount: animation.loopCount,
        frameDurations: animation.frames.map(\.control.duration), orientation: preamble.orientation,
        byteCount: bytes.count)
    }
  }

  /// A frame source for an APNG that plays as an animation, `nil` for a
  /// still PNG or an APNG shown as a still; see ``APNGFrameSource``.
  public func frameSource(for data: Data, options: DecodeOptions) throws(MagpieError) -> (any ImageFrameSource)? {
    try APNGFrameSource.make(data: data, options: options, usesFastPath: usesFastPath)
  }

  /// True for PNG and APNG.
  public func canEncode(to format: ImageFormat) -> Bool { format == .png || format == .apng }

  /// Encodes the first frame as an 8-bit PNG: RGB when the pixels are
  /// opaque, else straight-alpha RGBA; zlib level
  /// `options.compressionLevel`. As `.apng`, an animated image keeps every
  /// frame, its duration and the loop count (`APNGEncoder`); a still one
  /// is a plain PNG either way.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .png || format == .apng else {
      throw MagpieError(.encodingFailed, "PNGCoder does not encode \(format.rawValue)")
    }
    guard (0...9).contains(options.compressionLevel) else {
      throw MagpieError(.invalidArgument, "PNG compression level \(options.compressionLevel) is not in 0...9")
    }
    if format == .apng && image.isAnimated {
      var frames = try EncodingFrames(image, firstFrameOnly: false)
      return try APNGEncoder.encode(&frames, level: options.compressionLevel)
    }
    let pixels = image.pixels
    guard pixels.width > 0, pixels.height > 0, pixels.width <= 0x7FFF_FFFF, pixels.height <= 0x7FFF_FFFF else {
      throw MagpieError(.invalidArgument, "a PNG cannot hold a \(pixels.size) image")
    }
    return try Self.encode(pixels, dropAlpha: pixels.isOpaque, level: options.compressionLevel)
  }

  /// `pixels` as a PNG, RGB when `dropAlpha` (the pixels must be opaque),
  /// else straight-alpha RGBA: opaque or straight pixels written in place,
  /// premultiplied ones through a straight copy.
  static func encode(_ pixels: PixelBuffer, dropAlpha: Bool, level: Int) throws(MagpieError) -> Data {
    if pixels.isOpaque || pixels.alphaRepresentation == .straight {
      return try pixels.withUnsafeBytes { (raw) throws(MagpieError) -> Data in
        try encode(raw, size: pixels.size, stride: pixels.bytesPerRow, dropAlpha: dropAlpha, level: level)
      }
    }
    let straight = pixels.straightRGBA()
    let result: Result<Data, MagpieError> = straight.withUnsafeBytes { raw in
      Result { () throws(MagpieError) -> Data in
        try encode(
          raw, size: pixels.size, stride: pixels.width * PixelBuffer.bytesPerPixel, dropAlpha: dropAlpha, level: level)
      }
    }
    return try result.get()
  }

  private func decode(bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(MagpieError) -> Image {
    let preamble = PNGPreamble(scanning: bytes)
    let reader = try PNGReader(bytes, usesFastPath: usesFastPath)
    let header = try Self.readHeader(of: reader, preamble: preamble)
    // PNG cannot shrink while decoding: the decoded size is the declared one.
    try options.checkPixelLimit(decoded: header.size, declared: header.size)
    var frames: [ImageFrame]
    var loopCount = 0
    let animation = preamble.isAnimated ? try APNGAnimation(parsing: bytes, canvas: header.size) : nil
    if let animation, animation.stillReason == nil {
      frames = try APNGDecoder.frames(
        of: animation, in: bytes, reader: reader, header: header, options: options, usesFastPath: usesFastPath)
      loopCount = animation.loopCount
    } else {
      // libpng decodes the rows in one call, at most the pixel limit's
      // worth: the time limit is checked before it.
      try options.startDeadline().check("the PNG image")
      let resampled = options.downsamples(header.size, orientation: preamble.orientation)
      frames = [ImageFrame(pixels: try reader.readPixels(premultiplied: resampled))]
    }
    if options.appliesOrientation && preamble.orientation != .up {
      for index in frames.indices { frames[index].pixels = frames[index].pixels.applying(preamble.orientation) }
    }
    var image = Image(
      frames: frames, loopCount: loopCount, format: preamble.isAnimated ? .apng : .png, scale: options.scale,
      orientation: preamble.orientation)
    // The registry converts (or keeps) the colours.
    image.colorProfile = preamble.colorProfile
    return image
  }

  /// The header, with a plainer reason than libpng's "IEND: out of place"
  /// for a file without image data.
  static func readHeader(of reader: PNGReader, preamble: PNGPreamble) throws(MagpieError) -> PNGHeader {
    do {
      return try reader.readHeader()
    } catch {
      guard preamble.endsBeforeImageData && error.code == .corruptData else { throw error }
      throw MagpieError(.corruptData, "the PNG has no image data: IEND comes before any IDAT chunk")
    }
  }

  static func encode(
    _ pixels: UnsafeRawBufferPointer, size: PixelSize, stride: Int, dropAlpha: Bool, level: Int
  ) throws(MagpieError) -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var count = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = mp_png_encode_rgba(
      pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(size.width), UInt32(size.height), stride,
      dropAlpha ? 1 : 0, Int32(level), &output, &count, &message, message.count)
    guard status == MP_PNG_OK, let output else {
      let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw MagpieError(.encodingFailed, "libpng could not encode the PNG: \(why.isEmpty ? "out of memory" : why)")
    }
    return Data(bytesNoCopy: output, count: count, deallocator: .custom { pointer, _ in mp_png_free(pointer) })
  }

  /// Runs `body` over `data`'s bytes, keeping its typed error.
  static func withBytes<R>(
    of data: Data, _ body: (UnsafeRawBufferPointer) throws(MagpieError) -> R
  ) throws(MagpieError) -> R {
    let result: Result<R, MagpieError> = data.withUnsafeBytes { raw in
      Result { () throws(MagpieError) -> R in try body(raw) }
    }
    return try result.get()
  }
}
