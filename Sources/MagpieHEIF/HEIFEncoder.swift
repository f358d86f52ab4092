import CHEIF
import CHEIFLoader
import Foundation
import Magpie

/// Writes HEIC with libheif and its x265 (HEVC) encoder plugin: the first
/// frame, 8-bit, alpha as libheif's auxiliary alpha image, the ICC profile
/// in a `colr` `prof` box, and EXIF in an `Exif` item when asked to keep
/// metadata.
enum HEIFEncoder {
  /// Largest width or height written: libheif 1.15 writes no grids, so one
  /// HEVC picture holds the whole image; this is the ceiling libavif has
  /// too, and keeps the RGBA copy libheif needs at 1 GiB at most. x265
  /// also refuses extreme shapes (8192 x 1, 16384 x 16: "Invalid image
  /// size"), which come back as ``MagpieError/Code/encodingFailed``.
  static let maxDimension = 16384

  /// x265's presets, slowest first; ``EncodeOptions/speed`` 0-10 picks one
  /// (10 and 9 both ultrafast). Without a speed libheif's own default
  /// ("slow") is kept.
  static let presets = [
    "placebo", "veryslow", "slower", "slow", "medium", "fast", "faster", "veryfast", "superfast", "ultrafast",
  ]

  /// Encodes `image`'s first frame at `options.quality` (or losslessly).
  ///
  /// Lossless asks x265 for 4:4:4 chroma and tags the image with the
  /// identity matrix (nclx matrix 0: RGB stored as GBR planes), which is
  /// what makes it lossless: x265's lossless mode codes the YCbCr libheif
  /// converts to (4:2:0 by default), and even at 4:4:4 with only the
  /// encoding options' nclx (or as `heif-enc -L --matrix_coefficients=0`
  /// writes it with libheif 1.15) the RGB/YCbCr round trip is off by 1.
  /// The nclx set on the image itself makes libheif take its GBR
  /// conversion: measured exact.
  static func encode(_ image: Image, options: EncodeOptions) throws(MagpieError) -> Data {
    let pixels = image.frames[0].pixels
    let size = pixels.size
    guard size.width > 0, size.height > 0, size.width <= maxDimension, size.height <= maxDimension else {
      throw MagpieError(.imageTooLarge, "heic: cannot write a \(size) image (1 to \(maxDimension) pixels a side)")
    }
    guard mp_heif_library_open() != 0 else {
      let why = lazyLibraryMessage { mp_heif_library_error($0, $1) }
      throw MagpieError(.encodingFailed, "heic: libheif could not be loaded: \(why)")
    }
    guard HEIFLibrary.isInitialized else {
      throw MagpieError(.encodingFailed, "heic: libheif failed to initialise its plugins")
    }
    let rgba = pixels.straightRGBA()
    let hasAlpha = !pixels.isOpaque && stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] != 255 }
    guard let context = heif_context_alloc() else {
      throw MagpieError(.encodingFailed, "heic: libheif could not allocate a context")
    }
    defer { heif_context_free(context) }
    let encoder = try makeEncoder(context, options: options)
    defer { heif_encoder_release(encoder) }
    let picture = try makeImage(rgba, size: size, hasAlpha: hasAlpha)
    defer { heif_image_release(picture) }
    if let icc = try MetadataEmbedder.profile(for: image, options: options) {
      try encodingCheck(
        icc.withUnsafeBytes { heif_image_set_raw_color_profile(picture, "prof", $0.baseAddress, $0.count) },
        "attaching the ICC profile")
    }
    guard let encoding = heif_encoding_options_alloc() else {
      throw MagpieError(.encodingFailed, "heic: libheif could not allocate encoding options")
    }
    defer { heif_encoding_options_free(encoding) }
    encoding.pointee.save_alpha_channel = hasAlpha ? 1 : 0
    let nclx = options.lossless ? heif_nclx_color_profile_alloc() : nil
    defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
    if options.lossless && nclx == nil {
      throw MagpieError(.encodingFailed, "heic: libheif could not allocate an nclx profile")
    }
    if let nclx {
      // The fields set below exist from version 4 of the options on; an
      // older library allocated a shorter struct, and could not be exact.
      guard encoding.pointee.version >= 4 else {
        throw MagpieError(.encodingFailed, "heic: this libheif is too old for exact lossless (options v4 needed)")
      }
      nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
      nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
      nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
      nclx.pointee.full_range_flag = 1
      encoding.pointee.output_nclx_profile = nclx
      // The nclx box must be written (macOS's workaround leaves it out),
      // beside an ICC profile too: it is what tells readers the planes
      // are GBR, not YCbCr.
      encoding.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
      encoding.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
      try encodingCheck(heif_image_set_nclx_color_profile(picture, nclx), "setting the identity matrix")
    }
    var handle: OpaquePointer?
    try encodingCheck(heif_context_encode_image(context, picture, encoder, encoding, &handle), "encoding")
    guard let handle else { throw MagpieError(.encodingFailed, "heic: libheif returned no image handle") }
    defer { heif_image_handle_release(handle) }
    if options.keepsMetadata, let exif = image.metadata?.exifToWrite, !exif.isEmpty {
      guard exif.count <= Int(Int32.max) else {
        throw MagpieError(.encodingFailed, "heic: the EXIF block is too large")
      }
      try encodingCheck(
        exif.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) },
        "adding EXIF")
    }
    return try write(context)
  }

  /// libheif's x265 encoder set to `options`' quality, lossless mode and
  /// speed. Release it with `heif_encoder_release`.
  private static func makeEncoder(
    _ context: OpaquePointer, options: EncodeOptions
  ) throws(MagpieError) -> OpaquePointer {
    var found: OpaquePointer?
    try encodingCheck(
      heif_context_get_encoder_for_format(context, heif_compression_HEVC, &found), "finding an HEVC encoder")
    guard let encoder = found else { throw MagpieError(.encodingFailed, "heic: libheif has no HEVC encoder") }
    do throws(MagpieError) {
      if options.lossless {
        try encodingCheck(heif_encoder_set_lossless(encoder, 1), "setting lossless")
        try encodingCheck(heif_encoder_set_parameter_string(encoder, "chroma", "444"), "setting 4:4:4 chroma")
      } else {
        let quality = Int32(min(max(options.quality, 0), 100))
        try encodingCheck(heif_encoder_set_lossy_quality(encoder, quality), "setting quality \(quality)")
      }
      if let speed = options.speed {
        let preset = presets[min(max(speed, 0), presets.count - 1)]
        try encodingCheck(heif_encoder_set_parameter_string(encoder, "preset", preset), "setting preset \(preset)")
      }
    } catch {
      heif_encoder_release(encoder)
      throw error
    }
    return encoder
  }

  /// A libheif image holding `rgba` (straight, packed) as interleaved RGB,
  /// or RGBA when `hasAlpha`. Release it with `heif_image_release`.
  private static func makeImage(_ rgba: [UInt8], size: PixelSize, hasAlpha: Bool) throws(MagpieError) -> OpaquePointer {
    let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
    var created: OpaquePointer?
    try encodingCheck(
      heif_image_create(Int32(size.width), Int32(size.height), heif_colorspace_RGB, chroma, &created),
      "creating an image")
    guard let image = created else { throw MagpieError(.encodingFailed, "heic: libheif made no image") }
    var stride: Int32 = 0
    let added = heif_image_add_plane(image, heif_channel_interleaved, Int32(size.width), Int32(size.height), 8)
    guard added.code == heif_error_Ok, let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
      heif_image_release(image)
      throw MagpieError(.encodingFailed, "heic: libheif could not allocate a \(size) plane")
    }
    let channels = hasAlpha ? 4 : 3
    rgba.withUnsafeBufferPointer { source in
      for y in 0..<size.height {
        let row = plane + y * Int(stride)
        let from = y * size.width * 4
        if hasAlpha {
          row.update(from: source.baseAddress! + from, count: size.width * 4)
          continue
        }
        for x in 0..<size.width {
          row[x * channels] = source[from + x * 4]
          row[x * channels + 1] = source[from + x * 4 + 1]
          row[x * channels + 2] = source[from + x * 4 + 2]
        }
      }
    }
    return image
  }

  /// The file libheif writes for `context`, collected through a writer
  /// callback (no temporary file).
  private static func write(_ context: OpaquePointer) throws(MagpieError) -> Data {
    let sink = HEIFOutput()
    var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
      let sink = Unmanaged<HEIFOutput>.fromOpaque(userdata!).takeUnretainedValue()
      if let data, size > 0 { sink.data.append(data.assumingMemoryBound(to: UInt8.self), count: size) }
      return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIFOutput.success)
    }
    let result = withExtendedLifetime(sink) {
      heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
    }
    try encodingCheck(result, "writing the file")
    return sink.data
  }

  /// Throws ``MagpieError/Code/encodingFailed`` with libheif's message for
  /// any `error` but `heif_error_Ok`; `doing` says what failed.
  static func encodingCheck(_ error: heif_error, _ doing: String) throws(MagpieError) {
    guard error.code != heif_error_Ok else { return }
    let message = error.message.map { String(cString: $0) } ?? "no message"
    throw MagpieError(.encodingFailed, "heic: \(doing): \(message)")
  }
}
