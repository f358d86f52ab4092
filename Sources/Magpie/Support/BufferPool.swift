import Foundation

/// Reusable buffers in power-of-two sizes from 64 KiB, for memory that is
/// needed again and again at similar sizes: whole bodies
/// (``CurlDataLoader/data(for:progress:)``, handed out as a `Data` over a
/// pooled buffer that comes back when the last copy of that `Data` is
/// released) and the resampler's scratch rows. Fresh memory each time cost
/// more than the work it held (a page fault per 4 KiB: 1 GB of 1 MB bodies
/// took 0.29 CPU seconds against 0.08 with the memory kept; a 256 px JPEG
/// thumbnail spent a seventh of its time in the kernel). At most
/// ``retainedLimit`` bytes of free buffers are kept; the rest are freed.
final class BufferPool: Sendable {
  /// The smallest pooled buffer; smaller needs get plain memory.
  static let smallestSize = 64 << 10
  /// The largest pooled buffer; larger needs get plain memory.
  static let largestSize = 64 << 20

  /// Free bytes kept at most.
  let retainedLimit: Int
  private struct Free {
    var buffers: [Int: [UInt]] = [:]
    var bytes = 0
  }
  // Addresses as integers so the state is Sendable.
  private let free = Lock(Free())

  /// A pool that keeps at most `retainedLimit` free bytes.
  init(retainedLimit: Int = 32 << 20) {
    self.retainedLimit = retainedLimit
  }

  deinit {
    for address in free.withLock({ $0.buffers.values.joined() }) {
      UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
    }
  }

  /// The size of buffer that holds `count` bytes, or `nil` when `count` is
  /// outside the pooled range.
  static func size(holding count: Int) -> Int? {
    guard count >= smallestSize / 2, count <= largestSize else { return nil }
    var size = smallestSize
    while size < count { size <<= 1 }
    return size
  }

  /// A buffer of `size` bytes (a size from ``size(holding:)``): a free one
  /// when there is one.
  func take(size: Int) -> UnsafeMutableRawPointer {
    let reused = free.withLock { free -> UInt? in
      guard let address = free.buffers[size]?.popLast() else { return nil }
      free.bytes -= size
      return address
    }
    return reused.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
      ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
  }

  /// Runs `body` with a buffer of at least `count` bytes, pooled when
  /// `count` is in the pooled range, and takes the buffer back after.
  func withBuffer<R, E: Error>(
    holding count: Int, _ body: (UnsafeMutableRawPointer) throws(E) -> R
  ) throws(E) -> R {
    guard let size = Self.size(holding: count) else {
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
      defer { buffer.deallocate() }
      return try body(buffer)
    }
    let buffer = take(size: size)
    defer { give(back: buffer, size: size) }
    return try body(buffer)
  }

  /// The first `count` bytes of `buffer` (from ``take(size:)``) as a `Data`
  /// that gives the buffer back when released.
  func data(_ buffer: UnsafeMutableRawPointer, size: Int, count: Int) -> Data {
    Data(
      bytesNoCopy: buffer, count: count, deallocator: .custom { [self] pointer, _ in give(back: pointer, size: size) })
  }

  /// Takes `buffer` back for reuse, or frees it when the pool is full.
  func give(back buffer: UnsafeMutableRawPointer, size: Int) {
    let kept = free.withLock { free -> Bool in
      guard free.bytes + size <= retainedLimit else { return false }
      free.buffers[size, default: []].append(UInt(bitPattern: buffer))
      free.bytes += size
      return true
    }
    if !kept { buffer.deallocate() }
  }
}
