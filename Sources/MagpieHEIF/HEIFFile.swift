import CHEIF
import CHEIFLoader
import Foundation
import Magpie

/// One HEIF file opened by libheif over bytes that stay pinned while it is
/// used, and its primary image's handle. Use it only inside ``with(_:_:)``.
final class HEIFFile {
  /// The libheif context that parsed the boxes.
  let context: OpaquePointer
  /// The primary image, its irot/imir/clap applied by libheif when decoded.
  let primary: HEIFHandle

  private init(context: OpaquePointer, primary: HEIFHandle) {
    self.context = context
    self.primary = primary
  }

  /// Decodes a grid's tiles on up to `threads` threads of libheif's own
  /// side by side; 0 decodes them one after another on the calling thread.
  func setTileThreads(_ threads: Int) { heif_context_set_max_decoding_threads(context, Int32(threads)) }

  /// Parses `data`'s boxes (no pixels decoded) and runs `body` with the file;
  /// everything is released when `body` returns.
  static func with<R>(_ data: Data, _ body: (HEIFFile) throws(MagpieError) -> R) throws(MagpieError) -> R {
    var result: Result<R, MagpieError>?
    data.withUnsafeBytes { bytes in
      result = Result { () throws(MagpieError) -> R in
        guard mp_heif_library_open() != 0 else {
          let why = lazyLibraryMessage { mp_heif_library_error($0, $1) }
          throw MagpieError(.unsupportedFormat, "heic: libheif could not be loaded: \(why)")
        }
        guard HEIFLibrary.isInitialized else {
          throw MagpieError(.unsupportedFormat, "heic: libheif failed to initialise its decoders")
        }
        guard let context = heif_context_alloc() else {
          throw MagpieError(.corruptData, "heic: libheif could not allocate a context")
        }
        defer { heif_context_free(context) }
        // Without a copy: the bytes stay pinned until the context is freed.
        try HEIFError.check(
          heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), "read")
        var handle: OpaquePointer?
        try HEIFError.check(heif_context_get_primary_image_handle(context, &handle), "primary image")
        guard let handle else { throw MagpieError(.corruptData, "heic: no primary image") }
        return try body(HEIFFile(context: context, primary: HEIFHandle(handle)))
      }
    }
    return try result!.get()
  }
}
