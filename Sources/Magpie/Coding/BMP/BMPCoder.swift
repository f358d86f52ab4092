import Foundation

/// Decodes and encodes Windows bitmaps, in the core: no library needed.
///
/// Reads every header version (BITMAPCOREHEADER, OS/2 2.x, INFOHEADER, V2
/// to V5), 1, 2, 4, 8, 16, 24 and 32 bits a pixel, `BI_BITFIELDS` and
/// `BI_ALPHABITFIELDS` masks of any width, `BI_RLE4` and `BI_RLE8` with
/// delta and end-of-line codes, rows stored bottom-up or top-down, and a
/// V5 header's embedded ICC profile (which the registry's colour
/// management applies). Stored values become RGBA8 by the browsers' rules:
/// an n-bit field is scaled rounding to nearest, a 32-bit `BI_RGB` image
/// whose fourth bytes are all zero is opaque, an index past the palette is
/// opaque black, and pixels run-length data leaves unfilled are transparent.
///
/// Limits: the pixel limit is checked against the declared size before any
/// pixel memory is taken. Uncompressed data that ends early decodes as a
/// partial image (missing rows transparent) when at least one row is there
/// and `allowsPartialImage`; so does run-length data without its end code.
/// Embedded JPEG or PNG (`BI_JPEG`, `BI_PNG`, printer formats) and OS/2
/// Huffman and RLE24 are refused as unsupported.
///
/// Encoding writes 24-bit rows for opaque images and 32-bit straight alpha
/// (BITMAPV4HEADER with masks) otherwise, with the profile in a V5 header
/// when ``EncodeOptions/colorProfile`` gives one.
public struct BMPCoder: ImageCoder {
  /// Creates the coder.
  public init() {}

  /// True for BMP data.
  public func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .bmp }

  /// Decodes the bitmap.
  public func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
    var image = try PinnedBytes.with(data) { (b) throws(MagpieError) -> Image in
      let header = try BMPHeader(b)
      let result = try BMPDecoder.decode(b, header: header, options: options)
      var image = Image(
        frames: [ImageFrame(pixels: result.pixels)], format: .bmp, scale: options.scale, isPartial: result.isPartial)
      if let range = header.iccRange {
        image.colorProfile = ColorProfile(iccData: Data(UnsafeRawBufferPointer(rebasing: b[range])))
      }
      return image
    }
    if options.keepsOriginalData { image.originalData = data }
    return image
  }

  /// The size from the headers alone.
  public func info(of data: Data) throws(MagpieError) -> ImageInfo {
    try PinnedBytes.with(data) { (b) throws(MagpieError) -> ImageInfo in
      ImageInfo(format: .bmp, size: try BMPHeader(b).size, byteCount: b.count)
    }
  }

  /// True for ``ImageFormat/bmp``.
  public func canEncode(to format: ImageFormat) -> Bool { format == .bmp }

  /// Encodes the first frame: 24-bit when opaque, else 32-bit with alpha.
  public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(MagpieError) -> Data {
    guard format == .bmp else { throw MagpieError(.encodingFailed, "BMPCoder does not encode \(format.rawValue)") }
    return try BMPEncoder.encode(image.pixels, icc: MetadataEmbedder.profile(for: image, options: options))
  }
}
