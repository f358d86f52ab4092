import CHEIF
import CHEIFLoader
import Foundation
import Magpie

/// A libheif image handle (the primary image or one of its thumbnails):
/// what its boxes say, and its decode. Releases the handle when freed.
final class HEIFHandle {
  private let handle: OpaquePointer

  /// Takes ownership of `handle`.
  init(_ handle: OpaquePointer) { self.handle = handle }

  deinit { heif_image_handle_release(handle) }

  /// The size decoded pixels will have: after libheif's irot/imir/clap.
  var size: PixelSize {
    PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
  }

  /// Whether an alpha auxiliary image comes with it.
  var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }

  /// The ICC profile from a `colr` box of type `prof` or `rICC`, if any
  /// (an nclx `colr` has none: it states sRGB-like primaries in numbers).
  func iccProfile() -> ColorProfile? {
    let size = heif_image_handle_get_raw_color_profile_size(handle)
    guard size > 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: size)
    let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
    guard error.code == heif_error_Ok else { return nil }
    return ColorProfile(iccData: Data(bytes))
  }

  /// The thumbnails the file stores for this image (`thmb` references).
  func thumbnails() -> [HEIFHandle] {
    let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
    guard count > 0 else { return [] }
    var ids = [heif_item_id](repeating: 0, count: count)
    let filled = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
    return ids.prefix(filled).compactMap { id in
      var thumbnail: OpaquePointer?
      guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else {
        return nil
      }
      return HEIFHandle(thumbnail)
    }
  }

  /// Decodes the pixels to RGBA8: 8-bit files through interleaved RGBA,
  /// deeper ones through 16-bit little-endian samples rounded to the
  /// nearest 8-bit value here (libheif's own 8-bit conversion shifts,
  /// which truncates). Straight alpha, or premultiplied when the file says
  /// its colour is (libheif 1.15 does not undo it). An HEVC picture
  /// decoded on this thread uses `decoder` (or the next there is) on
  /// `pictureThreads` threads.
  func decodeRGBA8(pictureThreads: Int = 1, decoder: HEVCDecoder = .fastest) throws(MagpieError) -> PixelBuffer {
    let alpha = hasAlpha
    let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
    let chroma: heif_chroma =
      switch (deep, alpha) {
      // RGBA even without alpha: libheif fills 255 as it converts, cheaper
      // than expanding RGB here (measured 71.5 against 75.1 ms for 1600x1067).
      case (false, false): heif_chroma_interleaved_RGBA
      case (false, true): heif_chroma_interleaved_RGBA
      case (true, false): heif_chroma_interleaved_RRGGBB_LE
      case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
      }
    guard let options = heif_decoding_options_alloc() else {
      throw MagpieError(.corruptData, "heic: libheif could not allocate decoding options")
    }
    defer { heif_decoding_options_free(options) }
    // Read by the HEVC decoders libheif makes on this thread (heif_avcodec.c,
    // heif_de265.c); the thread's defaults again afterwards.
    mp_heif_hevc_set_threads(pictureThreads > 1 ? Int32(pictureThreads) : 0)
    mp_heif_hevc_set_backend(decoder.backend)
    defer {
      mp_heif_hevc_set_threads(0)
      mp_heif_hevc_set_backend(mp_heif_hevc_any)
    }
    var image: OpaquePointer?
    try HEIFError.check(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options), "decode")
    guard let image else { throw MagpieError(.corruptData, "heic: libheif returned no image") }
    defer { heif_image_release(image) }
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
      throw MagpieError(.corruptData, "heic: decoded image has no interleaved plane")
    }
    let width = Int(heif_image_get_width(image, heif_channel_interleaved))
    let height = Int(heif_image_get_height(image, heif_channel_interleaved))
    let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
    let premultiplied = alpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
    let layout = HEIFPlane(
      base: UnsafeRawPointer(plane), stride: Int(stride), width: width, height: height,
      channels: alpha || !deep ? 4 : 3, bits: deep ? bits : 8, hasAlpha: alpha)
    return PixelBuffer(uninitializedWidth: width, height: height, alpha: premultiplied ? .premultiplied : .straight) {
      layout.copyRGBA8(into: $0)
    }
  }
}
