import Foundation

/// Receive buffers for body chunks, reused: a chunk handed to a consumer
/// is a `Data` over a pooled buffer that returns to the pool when the last
/// copy of that `Data` is released. Saves the libcurl thread a `malloc`,
/// and the page faults of fresh memory, per chunk.
final class ChunkBufferPool: Sendable {
  /// Every buffer's size in bytes.
  let bufferSize: Int
  private let limit: Int
  // Addresses of free buffers; kept as integers so the state is Sendable.
  private let free = Lock<[UInt]>([])

  /// A pool of `bufferSize`-byte buffers that keeps at most `limit` free.
  init(bufferSize: Int, limit: Int) {
    self.bufferSize = bufferSize
    self.limit = limit
  }

  deinit {
    for address in free.withLock({ $0 }) {
      UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
    }
  }

  /// A `Data` holding a copy of `bytes` (at most ``bufferSize`` of them).
  func data(copying bytes: UnsafeRawBufferPointer) -> Data {
    precondition(bytes.count <= bufferSize)
    let buffer =
      free.withLock { $0.popLast() }.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
      ?? UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
    if let base = bytes.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
    return Data(
      bytesNoCopy: buffer, count: bytes.count,
      deallocator: .custom { [self] pointer, _ in give(back: pointer) })
  }

  private func give(back pointer: UnsafeMutableRawPointer) {
    let kept = free.withLock { free in
      guard free.count < limit else { return false }
      free.append(UInt(bitPattern: pointer))
      return true
    }
    if !kept { pointer.deallocate() }
  }
}
