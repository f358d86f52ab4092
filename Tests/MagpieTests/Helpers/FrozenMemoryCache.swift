import Magpie

extension MemoryCache where Key == String, Value == Image {
  /// An image memory cache on a clock that stands still, so its entries
  /// never expire: for tests that check where a result came from, not how
  /// long an entry lives.
  ///
  /// On the real clock an entry not read for five minutes (the default
  /// lifetime) expires. Swift Testing starts every test at once, so under
  /// ThreadSanitizer on two cores each test lasts about as long as the
  /// whole run (nine minutes and more), and a memory hit expected between
  /// two awaits could come from disk instead.
  static func frozen(totalCost: Int = 256 << 20) -> MemoryCache<String, Image> {
    MemoryCache(limits: .init(totalCost: totalCost), now: { 0 })
  }
}
