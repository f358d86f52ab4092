import Foundation

/// A copy of encoded bytes at an address that stays put for the object's
/// life, for C decoders (giflib, libwebpdemux) that keep pointers into
/// their input between calls, which `Data.withUnsafeBytes` does not allow.
final class OwnedBytes {
  /// The bytes, valid while this object lives.
  let bytes: UnsafeRawBufferPointer

  /// Copies `data`.
  init(copying data: Data) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
    data.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: data.count)
    bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<data.count])
  }

  deinit { UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate() }
}
