import Foundation
import Magpie

#if canImport(Glibc)
  import Glibc
#endif

/// `magpie-cache-probe bench DIR BYTES ROUNDS`: what the entry header and its
/// CRC-32 cost on the disk cache's hot path (build with `-c release`).
/// Medians of a ``DiskCache`` store and read of one BYTES-sized entry, next
/// to the same system calls without the header (what the cache did before
/// entries had one: temporary file, fsync, rename; open, fstat, read), and
/// the checksum alone in memory.
enum EntryBench {
  static func run(directory: URL, bytes: Int, rounds: Int) -> String {
    let cache: DiskCache
    do { cache = try DiskCache(configuration: .init(directory: directory)) } catch { fail("\(error)") }
    var random = XorShift(seed: 7)
    let value = Data((0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    let plain = directory.appendingPathComponent("plain").path
    let clock = ContinuousClock()
    var times: [String: [Double]] = [:]
    func time(_ name: String, _ work: () throws -> Void) rethrows {
      let start = clock.now
      try work()
      let elapsed = clock.now - start
      let (seconds, attoseconds) = elapsed.components
      times[name, default: []].append(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
    }
    do {
      for _ in 0..<rounds {
        try time("store_ms") { try cache.store(value, forKey: "bench") }
        try time("read_ms") {
          let count = try cache.data(forKey: "bench")?.count
          precondition(count == bytes)
        }
        time("plain_write_ms") { writePlain(value, to: plain) }
        time("plain_read_ms") { precondition(readPlain(plain) == bytes) }
        time("checksum_ms") { precondition(DiskCacheEntry.header(for: value).count == DiskCacheEntry.headerSize) }
      }
    } catch {
      fail("\(error)")
    }
    let medians = times.keys.sorted().map { key -> String in
      let sorted = times[key]!.sorted()
      return "\"\(key)\":\(String(format: "%.4f", sorted[sorted.count / 2]))"
    }
    return "{\"bytes\":\(bytes),\"rounds\":\(rounds)," + medians.joined(separator: ",") + "}"
  }

  private static func writePlain(_ data: Data, to path: String) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard fd >= 0, written == data.count, fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else {
      fail("plain write: \(String(cString: strerror(errno)))")
    }
  }

  private static func readPlain(_ path: String) -> Int {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(fd) }
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0 else { return -1 }
    var data = Data(count: Int(info.st_size))
    return data.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
  }
}
