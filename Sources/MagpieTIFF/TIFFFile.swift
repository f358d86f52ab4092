import CTIFF
import CTIFFLoader
import Foundation
import Magpie

/// One TIFF opened by libtiff over bytes that stay pinned while it is
/// used, positioned at some directory. Use it only inside ``with(_:options:_:)``.
final class TIFFFile {
  /// The libtiff handle.
  let tiff: OpaquePointer
  /// The size of the file in bytes.
  let byteCount: Int
  private let memory: UnsafeMutablePointer<mp_tiff_memory>

  private init(tiff: OpaquePointer, memory: UnsafeMutablePointer<mp_tiff_memory>, byteCount: Int) {
    self.tiff = tiff
    self.memory = memory
    self.byteCount = byteCount
  }

  /// Opens `data` (reading its first directory, no pixels) and runs `body`
  /// with the file; everything is released when `body` returns. libtiff
  /// may allocate at most ``maxSingleAllocation(_:)`` bytes at once.
  static func with<R>(
    _ data: Data, options: DecodeOptions, _ body: (TIFFFile) throws(MagpieError) -> R
  ) throws(MagpieError) -> R {
    var result: Result<R, MagpieError>?
    data.withUnsafeBytes { bytes in
      result = Result { () throws(MagpieError) -> R in
        guard mp_tiff_library_open() != 0 else {
          let why = lazyLibraryMessage { mp_tiff_library_error($0, $1) }
          throw MagpieError(.unsupportedFormat, "tiff: libtiff could not be loaded: \(why)")
        }
        guard let memory = mp_tiff_memory_open(bytes.baseAddress, bytes.count, maxSingleAllocation(options)) else {
          throw MagpieError(.imageTooLarge, "tiff: out of memory opening the file")
        }
        defer { mp_tiff_memory_close(memory) }
        guard let tiff = memory.pointee.tiff else { throw error(memory, "open", fallback: "not a TIFF libtiff reads") }
        return try body(TIFFFile(tiff: tiff, memory: memory, byteCount: bytes.count))
      }
    }
    return try result!.get()
  }

  /// The most libtiff may allocate at once: a strip or tile of the largest
  /// frame the pixel limit allows at 8 bytes a pixel (16-bit RGBA), and at
  /// least 1 MiB for its own tables.
  static func maxSingleAllocation(_ options: DecodeOptions) -> Int64 {
    let (bytes, overflow) = options.maxPixelCount.multipliedReportingOverflow(by: 8)
    return Int64(max(overflow ? Int.max : bytes, 1 << 20))
  }

  /// How many errors libtiff has reported on this file so far.
  var errorCount: Int { Int(memory.pointee.error_count) }

  /// Forgets the errors reported so far (a damaged directory after the
  /// pages kept must not be blamed for a later failure).
  func clearErrors() {
    memory.pointee.error_count = 0
    memory.pointee.error.0 = 0
  }

  /// The error for a libtiff call that failed while `doing`, from what
  /// libtiff reported (see ``TIFFError``).
  func error(_ doing: String, fallback: String = "libtiff gave no reason") -> MagpieError {
    Self.error(memory, doing, fallback: fallback)
  }

  private static func error(
    _ memory: UnsafeMutablePointer<mp_tiff_memory>, _ doing: String, fallback: String
  ) -> MagpieError {
    let message = withUnsafeBytes(of: &memory.pointee.error) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return TIFFError.make(doing: doing, message: message.isEmpty ? fallback : message)
  }

  /// Reads the directory at `location` into libtiff's current directory.
  func select(_ location: TIFFDirectory.Location) throws(MagpieError) {
    let selected =
      switch location {
      case .chain(let index): TIFFSetDirectory(tiff, tdir_t(index))
      case .subIFD(let offset): TIFFSetSubDirectory(tiff, offset)
      }
    guard selected != 0 else { throw error("read directory \(location)") }
  }

  /// Moves to the next directory of the chain; whether there was one that
  /// libtiff could read.
  func advance() -> Bool { TIFFReadDirectory(tiff) != 0 }
}
