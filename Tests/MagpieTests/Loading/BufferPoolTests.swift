import Foundation
import Testing

@testable import Magpie

/// ``BufferPool`` and ``CollectedBody``: whole bodies in reused
/// buffers, given back when the last `Data` over one is released.
struct BufferPoolTests {
  @Test func sizesArePowersOfTwoInThePooledRange() {
    #expect(BufferPool.size(holding: 1000) == nil)
    #expect(BufferPool.size(holding: 32 << 10) == 64 << 10)
    #expect(BufferPool.size(holding: 64 << 10) == 64 << 10)
    #expect(BufferPool.size(holding: (64 << 10) + 1) == 128 << 10)
    #expect(BufferPool.size(holding: 1_100_000) == 2 << 20)
    #expect(BufferPool.size(holding: (64 << 20) + 1) == nil)
  }

  @Test func aReleasedBodyGivesItsBufferBackForTheNext() {
    let pool = BufferPool(retainedLimit: 4 << 20)
    var body = CollectedBody(pool: pool)
    body.reserve(100_000)
    let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    bytes.withUnsafeBytes { body.append(UnsafeRawBufferPointer(rebasing: $0[..<60_000])) }
    bytes.withUnsafeBytes { body.append(UnsafeRawBufferPointer(rebasing: $0[60_000...])) }
    var data: Data? = body.take()
    #expect(data == Data(bytes))
    #expect(body.isEmpty)
    let address = data!.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    data = nil
    // The same buffer serves the next body of its size.
    let reused = pool.take(size: 128 << 10)
    #expect(UInt(bitPattern: reused) == address)
    pool.give(back: reused, size: 128 << 10)
  }

  @Test func aBodyOverItsAnnouncedSizeMovesToPlainData() {
    let pool = BufferPool()
    var body = CollectedBody(pool: pool)
    body.reserve(40_000)
    let bytes = [UInt8](repeating: 7, count: 70_000)
    bytes.withUnsafeBytes { body.append($0) }
    bytes.withUnsafeBytes { body.append($0) }
    #expect(body.take() == Data(bytes + bytes))
  }

  @Test func freeBuffersPastTheLimitAreFreed() {
    let pool = BufferPool(retainedLimit: 128 << 10)
    let first = pool.take(size: 64 << 10)
    let second = pool.take(size: 64 << 10)
    let third = pool.take(size: 64 << 10)
    pool.give(back: first, size: 64 << 10)
    pool.give(back: second, size: 64 << 10)
    // Over the 128 KiB limit: freed, not kept.
    pool.give(back: third, size: 64 << 10)
    let again = [pool.take(size: 64 << 10), pool.take(size: 64 << 10)].map { UInt(bitPattern: $0) }
    #expect(Set(again) == Set([first, second].map { UInt(bitPattern: $0) }))
    for address in again { pool.give(back: UnsafeMutableRawPointer(bitPattern: address)!, size: 64 << 10) }
  }

  @Test func aDiscardedBodyGivesItsBufferBack() {
    let pool = BufferPool()
    var body = CollectedBody(pool: pool)
    body.reserve(200_000)
    [UInt8](repeating: 1, count: 1000).withUnsafeBytes { body.append($0) }
    body.discard()
    #expect(body.isEmpty)
    let buffer = pool.take(size: 256 << 10)
    pool.give(back: buffer, size: 256 << 10)
  }
}
