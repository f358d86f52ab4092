import CJXL
import CJXLLoader
import Foundation
import Magpie

/// Writes JPEG XL with libjxl 0.7's encoder, on the calling thread: a
/// still, or an animation (every frame, its duration in milliseconds at
/// 1000 ticks a second, the loop count) unless
/// ``EncodeOptions/firstFrameOnly``.
///
/// Lossy frames go through XYB at the distance ``JXLEncodeSettings`` maps
/// the quality to; lossless ones keep the original colour space and every
/// sample. Alpha is an 8-bit straight extra channel, present when any pixel
/// of a decoded frame is not opaque (or, for frames still to be decoded
/// from an animation's source, always). The ICC profile
/// ``EncodeOptions/colorProfile`` asks for is stored, else the colour is
/// signalled as sRGB; with ``EncodeOptions/keepsMetadata`` the EXIF and
/// XMP are `Exif` and `xml ` boxes.
enum JXLEncoder {
  /// Bytes of output buffer to start with; doubled while libjxl wants more.
  static let initialOutputSize = 64 * 1024

  /// Encodes `image` as JPEG XL with `options`.
  static func encode(_ image: Image, options: EncodeOptions) throws(MagpieError) -> Data {
    var frames = try EncodingFrames(image, firstFrameOnly: options.firstFrameOnly)
    let size = frames.size
    try JXLEncodeSettings.checkSize(size)
    let settings = JXLEncodeSettings(options)
    guard mp_jxl_library_open() != 0 else {
      let why = lazyLibraryMessage { mp_jxl_library_error($0, $1) }
      throw MagpieError(.encodingFailed, "jxl: libjxl could not be loaded: \(why)")
    }
    guard let encoder = JxlEncoderCreate(nil) else {
      throw MagpieError(.encodingFailed, "jxl: libjxl could not create an encoder")
    }
    defer { JxlEncoderDestroy(encoder) }
    let animated = frames.count > 1
    // Frames still to be decoded cannot be looked at first: alpha is kept.
    let hasAlpha =
      frames.allOpaque == nil
      || (options.firstFrameOnly ? [image.frames[0]] : image.frames).contains { hasTranslucentPixel($0.pixels) }
    var info = JxlBasicInfo()
    JxlEncoderInitBasicInfo(&info)
    info.xsize = UInt32(size.width)
    info.ysize = UInt32(size.height)
    info.bits_per_sample = 8
    info.uses_original_profile = settings.lossless ? 1 : 0
    info.num_color_channels = 3
    if hasAlpha {
      info.num_extra_channels = 1
      info.alpha_bits = 8
      info.alpha_premultiplied = 0
    }
    if animated {
      info.have_animation = 1
      info.animation.tps_numerator = 1000
      info.animation.tps_denominator = 1
      info.animation.num_loops = UInt32(clamping: max(0, frames.loopCount))
    }
    try check(JxlEncoderSetBasicInfo(encoder, &info), "setting the basic info", encoder)
    if hasAlpha {
      var alpha = JxlExtraChannelInfo()
      JxlEncoderInitExtraChannelInfo(JXL_CHANNEL_ALPHA, &alpha)
      alpha.bits_per_sample = 8
      alpha.alpha_premultiplied = 0
      try check(JxlEncoderSetExtraChannelInfo(encoder, 0, &alpha), "describing the alpha channel", encoder)
    }
    try setColor(of: image, options: options, encoder: encoder)
    if options.keepsMetadata, let metadata = image.metadata {
      try addMetadata(exif: metadata.exifToWrite, xmp: metadata.xmp, encoder: encoder)
    }
    let frameSettings = try makeFrameSettings(settings, encoder: encoder)
    var index = 0
    while let frame = try frames.next() {
      guard frame.pixels.size == size else {
        throw MagpieError(.invalidArgument, "jxl: frame \(index + 1) is \(frame.pixels.size), not \(size)")
      }
      if animated {
        var header = JxlFrameHeader()
        JxlEncoderInitFrameHeader(&header)
        // A zero-duration frame would be merged into the next by decoders
        // (it is a layer, not a frame): 1 ms keeps it a frame of its own.
        header.duration = UInt32(clamping: max(1, frame.durationMilliseconds))
        try check(JxlEncoderSetFrameHeader(frameSettings, &header), "setting frame \(index + 1)'s header", encoder)
      }
      try addFrame(frame.pixels, hasAlpha: hasAlpha, settings: frameSettings, encoder: encoder, index: index)
      index += 1
    }
    JxlEncoderCloseInput(encoder)
    return try output(of: encoder)
  }

  /// The ICC profile to embed, or sRGB signalled as an enumerated colour
  /// space (a few bytes instead of a profile).
  private static func setColor(
    of image: Image, options: EncodeOptions, encoder: OpaquePointer
  ) throws(MagpieError) {
    if let icc = try MetadataEmbedder.profile(for: image, options: options) {
      let status = icc.withUnsafeBytes { raw in
        JxlEncoderSetICCProfile(encoder, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
      }
      try check(status, "setting the ICC profile", encoder)
      return
    }
    var color = JxlColorEncoding()
    JxlColorEncodingSetToSRGB(&color, 0)
    try check(JxlEncoderSetColorEncoding(encoder, &color), "setting sRGB", encoder)
  }

  /// The EXIF (in an `Exif` box, after the 4-byte offset of its TIFF
  /// header, 0 here) and XMP (`xml `), uncompressed, in the container
  /// they need; nothing when there are neither.
  private static func addMetadata(exif: Data?, xmp: Data?, encoder: OpaquePointer) throws(MagpieError) {
    let boxes = [("Exif", exif.map { Data(count: 4) + $0 }), ("xml ", xmp)].compactMap { type, contents in
      contents.flatMap { $0.isEmpty ? nil : (type, $0) }
    }
    guard !boxes.isEmpty else { return }
    try check(JxlEncoderUseContainer(encoder, 1), "using the container", encoder)
    try check(JxlEncoderUseBoxes(encoder), "using metadata boxes", encoder)
    for (type, contents) in boxes {
      let status = contents.withUnsafeBytes { raw in
        JxlEncoderAddBox(encoder, type, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, 0)
      }
      try check(status, "adding the \(type) box", encoder)
    }
  }

  /// Frame settings for every frame: effort, and the distance or lossless.
  private static func makeFrameSettings(
    _ settings: JXLEncodeSettings, encoder: OpaquePointer
  ) throws(MagpieError) -> OpaquePointer {
    guard let frameSettings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
      throw MagpieError(.encodingFailed, "jxl: libjxl could not create frame settings")
    }
    try check(
      JxlEncoderFrameSettingsSetOption(frameSettings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(settings.effort)),
      "setting effort \(settings.effort)", encoder)
    if settings.lossless {
      try check(JxlEncoderSetFrameLossless(frameSettings, 1), "setting lossless", encoder)
    }
    try check(
      JxlEncoderSetFrameDistance(frameSettings, settings.distance), "setting distance \(settings.distance)", encoder)
    return frameSettings
  }

  /// Adds one frame: straight RGBA8 with alpha, packed RGB8 without.
  private static func addFrame(
    _ pixels: PixelBuffer, hasAlpha: Bool, settings: OpaquePointer, encoder: OpaquePointer, index: Int
  ) throws(MagpieError) {
    let rgba = pixels.straightRGBA()
    let channels = hasAlpha ? 4 : 3
    var format = JxlPixelFormat(
      num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    let samples = hasAlpha ? rgba : rgb(of: rgba)
    let status = samples.withUnsafeBytes { raw in
      JxlEncoderAddImageFrame(settings, &format, raw.baseAddress, raw.count)
    }
    try check(status, "adding frame \(index + 1)", encoder)
  }

  /// Whether any pixel of `pixels` has alpha below 255 (a buffer that says
  /// it is opaque is not read).
  private static func hasTranslucentPixel(_ pixels: PixelBuffer) -> Bool {
    guard !pixels.isOpaque else { return false }
    return pixels.withUnsafeBytes { raw in
      for y in 0..<pixels.height {
        let row = y * pixels.bytesPerRow
        for x in 0..<pixels.width where raw[row + x * 4 + 3] != 255 { return true }
      }
      return false
    }
  }

  /// `rgba` without its alpha bytes.
  private static func rgb(of rgba: [UInt8]) -> [UInt8] {
    let count = rgba.count / 4
    return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
      rgba.withUnsafeBufferPointer { source in
        for i in 0..<count {
          out[i * 3] = source[i * 4]
          out[i * 3 + 1] = source[i * 4 + 1]
          out[i * 3 + 2] = source[i * 4 + 2]
        }
      }
      initialized = count * 3
    }
  }

  /// Everything libjxl has to write, into a buffer doubled while it asks
  /// for more.
  private static func output(of encoder: OpaquePointer) throws(MagpieError) -> Data {
    var buffer = [UInt8](repeating: 0, count: initialOutputSize)
    var written = 0
    while true {
      let status = buffer.withUnsafeMutableBufferPointer { raw -> JxlEncoderStatus in
        var next: UnsafeMutablePointer<UInt8>? = raw.baseAddress! + written
        var available = raw.count - written
        let status = JxlEncoderProcessOutput(encoder, &next, &available)
        written = raw.count - available
        return status
      }
      guard status == JXL_ENC_NEED_MORE_OUTPUT else {
        try check(status, "writing the file", encoder)
        return Data(buffer.prefix(written))
      }
      buffer.append(contentsOf: repeatElement(0, count: buffer.count))
    }
  }

  /// Throws ``MagpieError/Code/encodingFailed`` with libjxl's error
  /// (`JxlEncoderGetError`) unless `status` is `JXL_ENC_SUCCESS`.
  private static func check(
    _ status: JxlEncoderStatus, _ doing: String, _ encoder: OpaquePointer
  ) throws(MagpieError) {
    guard status != JXL_ENC_SUCCESS else { return }
    let error = JxlEncoderGetError(encoder)
    let reason =
      switch error {
      case JXL_ENC_ERR_OOM: "out of memory"
      case JXL_ENC_ERR_BAD_INPUT: "bad input"
      case JXL_ENC_ERR_NOT_SUPPORTED: "not supported"
      case JXL_ENC_ERR_API_USAGE: "API usage error"
      case JXL_ENC_ERR_JBRD: "JPEG reconstruction data"
      default: "generic error"
      }
    throw MagpieError(.encodingFailed, "jxl: libjxl failed \(doing): \(reason) (error \(error.rawValue))")
  }
}
