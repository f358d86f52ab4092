import Foundation
import Magpie

/// Writes frames to an open file as tightly packed straight-alpha RGBA8
/// without a second full copy of any frame: bytes that are already
/// straight go to the file from the frame's own storage, row padding
/// skipped; others are converted a band at a time in one reusable scratch
/// buffer.
struct RawRGBAWriter: ~Copyable {
  /// Bytes converted per write for frames that need converting.
  static let scratchByteCount = 256 << 10

  private let descriptor: Int32
  /// The file's name, for errors.
  private let path: String
  private let scratch: UnsafeMutableRawBufferPointer

  /// A writer to `descriptor` (open on `path`), which stays owned by the caller.
  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
    scratch = .allocate(byteCount: Self.scratchByteCount, alignment: 16)
  }

  deinit { scratch.deallocate() }

  /// Appends `pixels`, `width * 4` bytes a row, top to bottom.
  func write(_ pixels: PixelBuffer) throws(CLIError) {
    let rowBytes = pixels.width * PixelBuffer.bytesPerPixel
    let stride = pixels.bytesPerRow
    let height = pixels.height
    let asTheyAre = Self.bytesAreStraightRGBA(pixels)
    try pixels.withUnsafeBytes { (source) throws(CLIError) in
      if asTheyAre {
        if stride == rowBytes { return try writeAll(UnsafeRawBufferPointer(rebasing: source[0..<(rowBytes * height)])) }
        for y in 0..<height {
          try writeAll(UnsafeRawBufferPointer(rebasing: source[(y * stride)..<(y * stride + rowBytes)]))
        }
        return
      }
      // Fill the scratch buffer row by row (a row wider than it goes in
      // pieces; both sizes are whole pixels), converting and writing it
      // each time it is full.
      var filled = 0
      for y in 0..<height {
        var done = 0
        while done < rowBytes {
          let count = min(rowBytes - done, scratch.count - filled)
          let start = y * stride + done
          UnsafeMutableRawBufferPointer(rebasing: scratch[filled..<(filled + count)])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
          filled += count
          done += count
          if filled == scratch.count {
            try flush(filled)
            filled = 0
          }
        }
      }
      if filled > 0 { try flush(filled) }
    }
  }

  /// Whether `pixels`' bytes are straight RGBA8 as they are stored, so they
  /// can be written without converting: straight buffers are, and
  /// premultiplied ones agree with them when every pixel is opaque.
  private static func bytesAreStraightRGBA(_ pixels: PixelBuffer) -> Bool {
    pixels.isOpaque || pixels.alphaRepresentation == .straight
  }

  /// Unpremultiplies the first `count` scratch bytes and writes them.
  private func flush(_ count: Int) throws(CLIError) {
    let band = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<count])
    PixelBuffer.unpremultiply(band)
    try writeAll(UnsafeRawBufferPointer(band))
  }

  /// Writes every byte of `bytes`, resuming after short writes.
  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(CLIError) {
    var offset = 0
    while offset < bytes.count {
      let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw .failure("write \(path)", String(cString: strerror(errno)))
      }
      offset += written
    }
  }
}
