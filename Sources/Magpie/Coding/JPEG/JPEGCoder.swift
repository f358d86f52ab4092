import CMagpieCodecs
import Foundation

/// Decodes and encodes JPEG with libjpeg-turbo.
///
/// Decoding handles baseline and progressive files, grayscale, YCbCr, RGB,
/// CMYK and YCCK, every chroma subsampling, restart markers and the EXIF
/// orientation. Pixels go straight from libjpeg into the final RGBA buffer.
/// CMYK and YCCK are read as Adobe-inverted CMYK whatever the markers say
/// and turned into RGB naively (`R = C * K / 255`), as Chrome and Firefox do
/// when there is no colour profile.
///
/// With ``DecodeOptions/targetSize`` set, the image is shrunk while decoding
/// with libjpeg's DCT scaling (1/2, 1/4 or 1/8), the smallest that still
/// covers the target, so a huge photo shown small never costs its full size
/// in memory. Progressive and other multi-scan files keep every DCT
/// coefficient of the full-size image while decoding (about 2 bytes a pixel
/// per component); that working memory is capped at
/// ``DecodeOptions/maxTotalByteCount``.
///
/// A progressive file decoded at 1/2, 1/4 or 1/8 scale is decoded from only
/// the scans that scale reads (``decodesOnlyNeededScans``): at 1/8 the IDCT
/// reads just each block's DC coefficient (and, for subsampled chroma, what
/// libjpeg-turbo's 2x2 IDCT reads: rows and columns 0, 1, 3, 5 and 7), so
/// the luma AC scans that make up most of the file are skipped
/// without being entropy-decoded. The pixels are the same as from every
/// scan. When the 1/8-scale image is at least 1.5 times the size the
/// caller needs, so that it will be shrunk further anyway, chroma keeps
/// only its DC too: the 2x2 chroma detail that loses is finer than the
/// final image shows (tested at >= 40 dB PSNR against the thumbnail made
/// from every scan).
///
/// At 1/4 and 1/8 scale a progressive YCbCr 4:2:0, 4:2:2 or 4:4:4 or
/// greyscale file, and at 1/2 one without vertically subsampled chroma, is
/// decoded by Magpie's own progressive decoder
/// (``usesOwnProgressiveDecoder``): libjpeg-turbo's pixels on x86-64, bit for
/// bit, in about half the time, keeping only the coefficients the reduced
/// IDCT reads (for 4:2:0, 58 % of libjpeg's coefficient memory at 1/4 and
/// 20 % at 1/8).
/// Anything it does not take, including every corrupt or cut-off file, goes
/// to libjpeg.
///
/// When the coded data stops before the image is full (a cut-off file, or
/// a header that overstates the size), libjpeg fills the rest and the image
/// comes back flagged ``Image/isPartial`` if
/// ``DecodeOptions/allowsPartialImage`` is set, else the decode fails with
/// ``MagpieError/Code/truncatedData``. A baseline file that lacks only its
/// final EOI marker is complete; a progressive one cannot be told from one
/// missing its later scans, so it counts as partial.
///
/// Encoding writes the first frame as baseline (or progressive) YCbCr with
/// 4:2:0 chroma subsampling below quality 90 and 4:4:4 from quality 90 up.
/// Alpha is dropped: the colour of each pixel, un-premultiplied, is written
/// as it is, as Pillow's `convert("RGB")` does.
public struct JPEGCoder: ImageCoder {
  /// Whether encoding computes optimal Huffman tables: a few percent
  /// smaller baseline files for a slower encode. Off by default, as in
  /// Pillow; progressive files are always optimized by libjpeg.
  public var optimizesCoding = false

  /// Whether a scaled decode of a progressive JPEG skips the scans the
  /// scale does not read; on by default. Off decodes every scan, as libjpeg
  /// does by itself.
  public var decodesOnlyNeededScans = true

  /// Whether a progressive JPEG decoded at a reduced scale goes through
  /// Magpie's own progressive decoder (which layouts and scales it takes:
  /// see the type's notes): the same pixels as libjpeg-turbo on x86-64,
  /// bit for bit, in about half the time. On by default. Off, or for
  /// anything it does not take (corrupt or cut-off data among it), libjpeg
  /// decodes the image.
  public var usesOwnProgressiveDecoder: Bool {
    get { progressiveDecoding != .libjpeg }
    set { progressiveDecoding = newValue ? .own : .libjpeg }
  }

  /// Which progressive decoder scaled decodes use (tests pick the portable
  /// bit operations with it).
  var progressiveDecoding = JPEGDecompressor.ProgressiveDecoding.own

  /// A coarser 1/8 decode may drop chroma detail when the image will be
  /// shrunk by at least this factor afterwards.
  static let dcOnlyShrinkFactor = 1.5

  /// Creates the coder.
  public init() {}

  /// True for data sniffed as JPEG.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .jpeg }

  /// Decodes a JPEG into upright, opaque RGBA pixels.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    let coder = self
    let result: Result<Image, MagpieError> = data.withUnsafeBytes { bytes in
      Result { () throws(MagpieError) in
        try Self.decode(bytes: bytes, options: options, coder: coder)
      }
    }
    var image = try result.get()
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// Reads the size (as displayed, after EXIF orientation) and the
  /// orientation from the header, without decoding pixels.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    let result: Result<ImageInfo, MagpieError> = data.withUnsafeBytes { bytes in
      Result { () throws(MagpieError) in
        let decompressor = try JPEGDecompressor()
        let header = try decompressor.readHeader(bytes)
        let orientation = Self.orientation(of: header)
        let stored = PixelSize(width: Int(header.width), height: Int(header.height))
        return ImageInfo(
          format: .jpeg, size: orientation.displayedSize(of: stored), orientation: orientation,
          byteCount: bytes.count)
      }
    }
    return try result.get()
  }

  /// True for ``ImageFormat/jpeg``.
  public func canEncode(to format: ImageFormat) -> Bool { format == .jpeg }

  /// Encodes the first frame as JPEG at `options.quality` (0-100), progressive
  /// when `options.progressive` is set; 4:2:0 chroma below quality 90, 4:4:4
  /// from 90 up; alpha dropped.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .jpeg else {
      throw MagpieError(.unsupportedFormat, "the JPEG coder does not write \(format.rawValue)")
    }
    guard (0...100).contains(options.quality) else {
      throw MagpieError(.invalidArgument, "JPEG quality \(options.quality) is outside 0-100")
    }
    let pixels = image.frames[0].pixels
    guard pixels.width > 0, pixels.height > 0 else {
      throw MagpieError(.invalidArgument, "cannot encode an empty \(pixels.size) image as JPEG")
    }
    // Opaque or straight pixels hold their colours as they are: hand libjpeg
    // the buffer. Otherwise undo the premultiplication first.
    if pixels.isOpaque || pixels.alphaRepresentation == .straight {
      return try pixels.withUnsafeBytes { bytes throws(MagpieError) in
        try encodeRGBA(bytes, size: pixels.size, stride: pixels.bytesPerRow, options: options)
      }
    }
    let straight = pixels.straightRGBA()
    let result: Result<Data, MagpieError> = straight.withUnsafeBytes { bytes in
      Result { () throws(MagpieError) in
        try encodeRGBA(bytes, size: pixels.size, stride: pixels.width * PixelBuffer.bytesPerPixel, options: options)
      }
    }
    return try result.get()
  }

  /// Reads the header of `bytes`, picks the DCT scale `options` asks for,
  /// checks the pixel limit, leaves out the scans that scale does not read
  /// (as `coder` says) and starts decompressing. Returns the
  /// decompressor, ready for rows of `size` (stored axes), with the EXIF
  /// orientation, the one to apply and what to do about colour.
  static func startDecompressing(
    _ bytes: UnsafeRawBufferPointer, options: DecodeOptions, coder: JPEGCoder
  ) throws(MagpieError) -> (
    decompressor: JPEGDecompressor, size: PixelSize, orientation: ImageOrientation, applied: ImageOrientation,
    color: JPEGColorPlan
  ) {
    let decompressor = try JPEGDecompressor()
    let deadline = options.startDeadline()
    try deadline.check("the JPEG header")
    decompressor.setDeadline(deadline)
    let header = try decompressor.readHeader(bytes)
    let color = JPEGColorPlan(header: header, options: options, decompressor: decompressor)
    let orientation = orientation(of: header)
    let applied = options.appliesOrientation ? orientation : .up
    let stored = PixelSize(width: Int(header.width), height: Int(header.height))
    let denominator = options.shrinkDenominator(for: stored, orientation: applied)
    let size = try decompressor.setOutput(scaleDenominator: denominator, maxMemory: options.maxTotalByteCount)
    try options.checkPixelLimit(decoded: size, declared: stored)
    decompressor.progressiveDecoding = coder.progressiveDecoding
    if coder.decodesOnlyNeededScans {
      try skipUnneededScans(
        decompressor, header: header, options: options, stored: stored, applied: applied, output: size,
        denominator: denominator)
    }
    try decompressor.start()
    // A multi-scan image has read all its data by now: fail before
    // allocating pixels.
    if decompressor.isIncomplete && !options.allowsPartialImage { throw decompressor.truncationError }
    return (decompressor, size, orientation, applied, color)
  }

  private static func decode(
    bytes: UnsafeRawBufferPointer, options: DecodeOptions, coder: JPEGCoder
  ) throws(MagpieError) -> Image {
    let (decompressor, size, orientation, applied, color) = try startDecompressing(
      bytes, options: options, coder: coder)
    var pixels = try PixelBuffer(uninitializedWidth: size.width, height: size.height, alpha: .straight) {
      (buffer: UnsafeMutableRawBufferPointer) throws(MagpieError) -> Bool in
      // Fresh memory: let the kernel back it with huge pages before libjpeg
      // touches it (page faults would cost a third of a large decode).
      mp_jpeg_advise_output_buffer(buffer.baseAddress, buffer.count)
      // checkPixelLimit rejected empty sizes, so the buffer has an address.
      let stride = size.width * PixelBuffer.bytesPerPixel
      if let transform = color.rgbTransform {
        try JPEGColorPlan.readRows(
          decompressor, into: buffer.baseAddress!, width: size.width, count: size.height, stride: stride,
          converting: transform)
      } else {
        try decompressor.readRows(into: buffer.baseAddress!, stride: stride, count: size.height)
      }
      return true
    }
    decompressor.finish()
    let isPartial = decompressor.isIncomplete
    if isPartial && !options.allowsPartialImage { throw decompressor.truncationError }
    if applied != .up { pixels = pixels.applying(applied) }
    var image = Image(
      frames: [ImageFrame(pixels: pixels)], loopCount: 0, format: .jpeg, scale: options.scale,
      orientation: orientation, isPartial: isPartial)
    image.colorProfile = color.attached
    return image
  }

  /// For a progressive image decoded at 1/`denominator` (> 1) to `size`,
  /// leaves out the scans that scale does not read; chroma keeps only DC
  /// when the 1/8 image will be shrunk by ``dcOnlyShrinkFactor`` or more.
  private static func skipUnneededScans(
    _ decompressor: JPEGDecompressor, header: mp_jpeg_header, options: DecodeOptions, stored: PixelSize,
    applied: ImageOrientation, output size: PixelSize, denominator: Int
  ) throws(MagpieError) {
    guard denominator > 1, header.is_progressive != 0 else { return }
    var dcOnly = false
    if denominator == 8, let needed = options.requiredStoredSize(for: stored, orientation: applied) {
      let shrink = min(
        Double(size.width) / Double(max(needed.width, 1)), Double(size.height) / Double(max(needed.height, 1)))
      dcOnly = shrink >= dcOnlyShrinkFactor
    }
    _ = try decompressor.skipUnneededScans(dcOnly: dcOnly)
  }

  /// The EXIF orientation in the header's APP1 block, `.up` without one.
  static func orientation(of header: mp_jpeg_header) -> ImageOrientation {
    guard let exif = header.exif, header.exif_length > 0 else { return .up }
    return EXIFOrientationReader.orientation(inEXIF: UnsafeRawBufferPointer(start: exif, count: header.exif_length))
  }

  private func encodeRGBA(
    _ bytes: UnsafeRawBufferPointer, size: PixelSize, stride: Int, options: EncodeOptions
  ) throws(MagpieError) -> Data {
    guard size.width <= 65_500, size.height <= 65_500 else {
      throw MagpieError(.invalidArgument, "JPEG stores at most 65500 pixels a side, not \(size)")
    }
    var params = mp_jpeg_encode_params()
    params.pixels = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    params.stride = stride
    params.width = UInt32(size.width)
    params.height = UInt32(size.height)
    params.input_format = MP_JPEG_INPUT_RGBA
    params.color_space = MP_JPEG_COLOR_YCBCR
    params.quality = Int32(options.quality)
    params.progressive = options.progressive ? 1 : 0
    params.optimize_coding = optimizesCoding ? 1 : 0
    if options.quality >= 90 {
      // Full-resolution luma sampling equal to chroma's: 4:4:4.
      params.h_samp = (1, 1, 1, 0)
      params.v_samp = (1, 1, 1, 0)
    }
    var result = mp_jpeg_encode_result()
    let status = mp_jpeg_encode(&params, &result)
    guard status == MP_JPEG_OK, let data = result.data else {
      let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      throw MagpieError(.encodingFailed, "libjpeg could not encode the \(size) image: \(message)")
    }
    return Data(bytesNoCopy: data, count: result.size, deallocator: .custom { pointer, _ in mp_jpeg_free(pointer) })
  }
}
