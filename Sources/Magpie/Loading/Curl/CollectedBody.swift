import Foundation

/// A whole body as a collecting transfer receives it: in a pooled buffer
/// sized from Content-Length when there is one (``BufferPool``), else
/// in a growing `Data`. Only the libcurl thread touches it.
struct CollectedBody {
  private let pool: BufferPool
  private var pooled: (buffer: UnsafeMutableRawPointer, size: Int, count: Int)?
  private var data = Data()

  init(pool: BufferPool) { self.pool = pool }

  /// Whether no byte has arrived.
  var isEmpty: Bool { (pooled?.count ?? 0) == 0 && data.isEmpty }

  /// Makes room for the `expected` bytes the server announced.
  mutating func reserve(_ expected: Int) {
    guard pooled == nil, data.isEmpty else { return }
    if let size = BufferPool.size(holding: expected) {
      pooled = (pool.take(size: size), size, 0)
    } else {
      data.reserveCapacity(expected)
    }
  }

  /// Adds `bytes`; a body that outgrows its pooled buffer moves to `Data`.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    if let (buffer, size, count) = pooled {
      if count + bytes.count <= size {
        (buffer + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        pooled!.count += bytes.count
        return
      }
      data = Data(bytes: buffer, count: count)
      pool.give(back: buffer, size: size)
      pooled = nil
    }
    data.append(contentsOf: bytes)
  }

  /// The body so far, handed over; this is then empty.
  mutating func take() -> Data {
    defer { data = Data() }
    guard let (buffer, size, count) = pooled else { return data }
    pooled = nil
    return pool.data(buffer, size: size, count: count)
  }

  /// Gives a pooled buffer back without handing it over (a failed load).
  mutating func discard() {
    if let (buffer, size, _) = pooled { pool.give(back: buffer, size: size) }
    pooled = nil
    data = Data()
  }
}
