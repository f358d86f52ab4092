import Foundation
import Magpie

extension FuzzHarness {
  /// The disk cache's entry reader (`DiskCacheEntry.parse`, the checks the
  /// cache runs on every file it reads). An input that is not an entry is
  /// also written as one and read back: that must give the same bytes.
  static let cacheEntry = FuzzHarness(
    name: "cache-entry", seedExtensions: ["png", "gif", "webp", "jpg"], maxLength: 16 << 10
  ) { data in
    _ = try? DiskCacheEntry.parse(data, maximumPayload: 8 << 10)
    guard !data.starts(with: Array("MGPC".utf8)) else { return }
    let entry = DiskCacheEntry.encode(data)
    guard (try? DiskCacheEntry.parse(entry)) == data else {
      fatalError("a disk-cache entry of \(data.count) payload bytes did not read back as written")
    }
  }
}
