import CJXL
import CJXLLoader
import Foundation
import Magpie

/// One libjxl decoder over its own copy of a file's bytes, given whole with
/// `JxlDecoderSetInput` (the input is left open, so a file that ends early
/// reads as `JXL_DEC_NEED_MORE_INPUT`, which is how truncation is told from
/// damage). Frames come out coalesced (full canvases), oriented unless
/// asked not to, as straight RGBA8 (`JXL_TYPE_UINT8`, which libjxl rounds
/// from its float pipeline; premultiplied files are unpremultiplied by it).
///
/// Not `Sendable`: libjxl's decoder state changes with every call.
final class JXLSession {
  /// The pixel format every frame is asked for.
  static let rgba8 = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)

  private let decoder: OpaquePointer
  private let bytes: UnsafeMutableRawBufferPointer
  private let events: Int32

  /// A decoder over a copy of `data` reporting `events` (`JXL_DEC_*` bits);
  /// `keepsOrientation` leaves pixels as stored.
  init(_ data: Data, events: [JxlDecoderStatus], keepsOrientation: Bool = false) throws(MagpieError) {
    guard mp_jxl_library_open() != 0 else {
      let why = lazyLibraryMessage { mp_jxl_library_error($0, $1) }
      throw MagpieError(.unsupportedFormat, "jxl: libjxl could not be loaded: \(why)")
    }
    guard let decoder = JxlDecoderCreate(nil) else {
      throw MagpieError(.corruptData, "jxl: libjxl could not create a decoder")
    }
    self.decoder = decoder
    bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
    _ = data.copyBytes(to: bytes)
    self.events = events.reduce(0) { $0 | Int32($1.rawValue) }
    guard JxlDecoderSubscribeEvents(decoder, self.events) == JXL_DEC_SUCCESS,
      JxlDecoderSetKeepOrientation(decoder, keepsOrientation ? 1 : 0) == JXL_DEC_SUCCESS,
      JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS
    else {
      JxlDecoderDestroy(decoder)
      bytes.deallocate()
      throw MagpieError(.corruptData, "jxl: libjxl refused the decoder settings")
    }
    count = data.count
    setInput()
  }

  private let count: Int

  deinit {
    JxlDecoderDestroy(decoder)
    bytes.deallocate()
  }

  private func setInput() {
    _ = JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
  }

  /// The next event.
  func process() -> JxlDecoderStatus { JxlDecoderProcessInput(decoder) }

  /// The basic info, valid from `JXL_DEC_BASIC_INFO` on.
  func basicInfo() throws(MagpieError) -> JxlBasicInfo {
    var info = JxlBasicInfo()
    guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
      throw MagpieError(.corruptData, "jxl: no basic info")
    }
    return info
  }

  /// The current frame's duration in ticks, valid after `JXL_DEC_FRAME`.
  func frameDuration() -> UInt32 {
    var header = JxlFrameHeader()
    guard JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else { return 0 }
    return header.duration
  }

  /// The colour profile the pixels come out in (`TARGET_DATA`), `nil` when
  /// libjxl describes it as sRGB; valid after `JXL_DEC_COLOR_ENCODING`.
  func colorProfile() -> ColorProfile? {
    var encoding = JxlColorEncoding()
    if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
      encoding.color_space == JXL_COLOR_SPACE_RGB, encoding.white_point == JXL_WHITE_POINT_D65,
      encoding.primaries == JXL_PRIMARIES_SRGB, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
    {
      return nil
    }
    var size = 0
    guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
      size > 0
    else { return nil }
    var icc = [UInt8](repeating: 0, count: size)
    guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &icc, size) == JXL_DEC_SUCCESS
    else { return nil }
    return ColorProfile(iccData: Data(icc))
  }

  /// Hands libjxl `buffer` for the current frame, after
  /// `JXL_DEC_NEED_IMAGE_OUT_BUFFER`; it must be exactly the size libjxl
  /// asks for.
  func setOutput(_ buffer: UnsafeMutableRawBufferPointer) throws(MagpieError) {
    var format = Self.rgba8
    var size = 0
    guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == buffer.count,
      JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, size) == JXL_DEC_SUCCESS
    else { throw MagpieError(.corruptData, "jxl: libjxl refused an RGBA8 buffer of \(buffer.count) bytes") }
  }

  /// Renders what has been decoded of the current frame into its buffer
  /// (after `JXL_DEC_NEED_MORE_INPUT`); false when nothing could be.
  func flush() -> Bool { JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS }

  /// Back to the start of the file (libjxl keeps what it learnt of the
  /// frames, so skipping forward again is cheap); the input is given again.
  func rewind() {
    _ = JxlDecoderReleaseInput(decoder)
    JxlDecoderRewind(decoder)
    // libjxl 0.7's documentation says a rewind keeps the subscribed events,
    // but without subscribing again its next call reports success at once.
    _ = JxlDecoderSubscribeEvents(decoder, events)
    setInput()
  }

  /// Skips the next `count` frames: libjxl decodes only what later frames
  /// are drawn over.
  func skipFrames(_ count: Int) { JxlDecoderSkipFrames(decoder, count) }
}
