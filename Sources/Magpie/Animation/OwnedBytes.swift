import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Encoded bytes at an address that stays put for the object's life, for C
/// decoders (giflib, libwebpdemux) that keep pointers into their input
/// between calls, which `Data.withUnsafeBytes` does not allow.
///
/// A frame source keeps ``data`` (a view of these bytes) rather than the
/// caller's `Data`, and ``holding(_:)`` adopts a view instead of copying
/// it: a file read with ``reading(path:)`` is held once however long it
/// plays, and the caller's own bytes go when the caller lets them go.
final class OwnedBytes: @unchecked Sendable {
  /// The bytes, valid while this object lives.
  let bytes: UnsafeRawBufferPointer

  /// Live objects by base address, so a view of one is recognised.
  private static let live = Lock<[UInt: Weak]>([:])

  private struct Weak {
    weak var owner: OwnedBytes?
  }

  private init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws(MagpieError) -> Void) throws(MagpieError) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
    do throws(MagpieError) {
      try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
    } catch {
      buffer.deallocate()
      throw error
    }
    bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count])
    let address = UInt(bitPattern: buffer.baseAddress)
    Self.live.withLock { $0[address] = Weak(owner: self) }
  }

  /// Copies `data`.
  convenience init(copying data: Data) {
    // The fill cannot fail.
    try! self.init(count: data.count) { buffer in
      data.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: data.count)
    }
  }

  /// The object `data` is a view of (see ``data``), else a copy of it.
  static func holding(_ data: Data) -> OwnedBytes {
    let found = data.withUnsafeBytes { raw -> OwnedBytes? in
      guard let base = raw.baseAddress else { return nil }
      let owner = live.withLock { $0[UInt(bitPattern: base)]?.owner }
      return owner?.bytes.count == raw.count ? owner : nil
    }
    return found ?? OwnedBytes(copying: data)
  }

  /// The whole file at `path`, read straight into the object's memory.
  static func reading(path: String) throws(MagpieError) -> OwnedBytes {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileIO.failure("open \(path)") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileIO.failure("stat \(path)") }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw MagpieError(.fileSystem, "\(path) is not a regular file")
    }
    return try OwnedBytes(count: Int(info.st_size)) { buffer throws(MagpieError) in
      let got = FileIO.readAll(fd, buffer, at: 0)
      if got < 0 { throw FileIO.failure("read \(path)") }
      if got < buffer.count { throw MagpieError(.fileSystem, "\(path) shrank while it was read") }
    }
  }

  /// The bytes as `Data`, without a copy; the view keeps this object (and
  /// so the bytes) alive. Each call makes a view of its own: a frame source
  /// makes one and keeps it in a `let`, so every view users get is shared
  /// and copies before a mutation.
  var data: Data {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
    return Data(
      bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count,
      deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
  }

  deinit {
    // Before the memory is freed, so no newer object has this address yet.
    let base = bytes.baseAddress
    _ = Self.live.withLock { $0.removeValue(forKey: UInt(bitPattern: base)) }
    UnsafeMutableRawPointer(mutating: base)?.deallocate()
  }
}
