import Foundation
import Magpie

/// One process's share of the multi-process soak: for a bounded time,
/// random gets, sets, removes and cleans over a small key space in a folder
/// other processes use too, with a size limit small enough that cleans
/// evict. Every value names its key and generation and is derived from
/// them, so any reader can tell a whole, right value from a torn or wrong
/// one without trusting the cache's own checksum.
struct SoakRun {
  /// What one process did and saw.
  struct Report {
    var operations = 0
    var gets = 0
    var hits = 0
    var sets = 0
    var removes = 0
    var cleans = 0
    var evicted = 0
    /// Hits whose value was not the whole value some writer stored under that key.
    var badReads = 0
    /// Files the cache found invalid and deleted (a torn write would land here).
    var discarded = 0
    var errors = 0

    /// One JSON line.
    var json: String {
      let fields: [(String, Int)] = [
        ("operations", operations), ("gets", gets), ("hits", hits), ("sets", sets), ("removes", removes),
        ("cleans", cleans), ("evicted", evicted), ("bad_reads", badReads), ("discarded", discarded),
        ("errors", errors),
      ]
      return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
  }

  let directory: URL
  let seed: UInt64
  let keys: Int
  /// Small enough that a few dozen values overflow it.
  static let sizeLimit = 256 << 10
  static let largestValue = 16 << 10

  func run(seconds: Double) -> Report {
    var report = Report()
    let cache: DiskCache
    do {
      cache = try DiskCache(configuration: .init(directory: directory, sizeLimit: Self.sizeLimit))
    } catch {
      fail("\(error)")
    }
    var random = XorShift(seed: seed)
    var generation = UInt64(getpid()) << 32
    var firstError: String?
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
      report.operations += 1
      let key = "soak-\(random.next() % UInt64(keys))"
      let roll = random.next() % 100
      do {
        if roll < 45 {
          report.gets += 1
          guard let data = try cache.data(forKey: key) else { continue }
          report.hits += 1
          if !Self.isWhole(data, key: key) { report.badReads += 1 }
        } else if roll < 85 {
          generation += 1
          let count = Int(random.next() % UInt64(Self.largestValue))
          try cache.store(Self.value(key: key, generation: generation, count: count), forKey: key)
          report.sets += 1
        } else if roll < 97 {
          try cache.remove(forKey: key)
          report.removes += 1
        } else {
          report.evicted += try cache.clean().evictedFiles
          report.cleans += 1
        }
      } catch {
        report.errors += 1
        if firstError == nil { firstError = "\(error)" }
      }
    }
    report.discarded = cache.corruptEntriesDiscarded
    if let firstError { FileHandle.standardError.write(Data("first error: \(firstError)\n".utf8)) }
    return report
  }

  /// Generation (8 bytes), key length (4) and key, body length (4), then a
  /// body drawn from a generator seeded by key and generation.
  static func value(key: String, generation: UInt64, count: Int) -> Data {
    var data = Data()
    withUnsafeBytes(of: generation.littleEndian) { data.append(contentsOf: $0) }
    let keyBytes = Array(key.utf8)
    withUnsafeBytes(of: UInt32(keyBytes.count).littleEndian) { data.append(contentsOf: $0) }
    data.append(contentsOf: keyBytes)
    withUnsafeBytes(of: UInt32(count).littleEndian) { data.append(contentsOf: $0) }
    data.append(contentsOf: body(key: key, generation: generation, count: count))
    return data
  }

  /// Whether `data` is exactly some ``value(key:generation:count:)`` for `key`.
  static func isWhole(_ data: Data, key: String) -> Bool {
    let bytes = [UInt8](data)
    let keyBytes = Array(key.utf8)
    func word(_ at: Int, _ size: Int) -> UInt64? {
      guard at + size <= bytes.count else { return nil }
      return bytes[at..<at + size].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
    guard let generation = word(0, 8), word(8, 4) == UInt64(keyBytes.count),
      bytes.count >= 12 + keyBytes.count, Array(bytes[12..<12 + keyBytes.count]) == keyBytes,
      let count = word(12 + keyBytes.count, 4)
    else { return false }
    let start = 16 + keyBytes.count
    guard bytes.count == start + Int(count) else { return false }
    return bytes[start...].elementsEqual(body(key: key, generation: generation, count: Int(count)))
  }

  private static func body(key: String, generation: UInt64, count: Int) -> [UInt8] {
    var random = XorShift(seed: key.utf8.reduce(generation) { $0 &* 1_099_511_628_211 ^ UInt64($1) })
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }
}
