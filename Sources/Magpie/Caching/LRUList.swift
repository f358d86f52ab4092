/// The bookkeeping of a least-recently-used cache as a plain value: entries
/// with a cost and an expiry time, most recent first, O(1) lookup, insert,
/// touch and eviction. Not thread-safe; ``MemoryCache`` guards it with a
/// lock, and tests drive it directly against a reference model.
///
/// Nodes live in one array and link to each other by index, so an entry
/// costs no allocation of its own; freed slots are reused.
@usableFromInline
struct LRUList<Key: Hashable, Value> {
  @usableFromInline
  struct Node {
    @usableFromInline var key: Key
    @usableFromInline var value: Value?
    @usableFromInline var cost: Int
    @usableFromInline var expiresAt: Double
    @usableFromInline var previous: Int
    @usableFromInline var next: Int

    @inlinable
    init(key: Key, value: Value?, cost: Int, expiresAt: Double, previous: Int, next: Int) {
      self.key = key
      self.value = value
      self.cost = cost
      self.expiresAt = expiresAt
      self.previous = previous
      self.next = next
    }
  }

  @inlinable
  init() {}

  @inlinable static var none: Int { -1 }

  @usableFromInline var nodes: [Node] = []
  @usableFromInline var free: [Int] = []
  @usableFromInline var index: [Key: Int] = [:]
  /// Most recently used.
  @usableFromInline var head = LRUList.none
  /// Least recently used: the next to go.
  @usableFromInline var tail = LRUList.none

  /// The sum of the costs of all entries.
  @usableFromInline var totalCost = 0

  /// The number of entries.
  @inlinable var count: Int { index.count }

  /// The value for `key`, made most recent, with its expiry moved to
  /// `newExpiry`; `nil` and removed if it had expired by `now`.
  @inlinable
  mutating func value(forKey key: Key, now: Double, newExpiry: Double) -> Value? {
    guard let slot = index[key] else { return nil }
    if nodes[slot].expiresAt <= now {
      remove(slot: slot)
      return nil
    }
    nodes[slot].expiresAt = newExpiry
    moveToFront(slot)
    return nodes[slot].value
  }

  /// The value for `key` without touching its recency or expiry.
  @inlinable
  func peek(_ key: Key) -> Value? {
    index[key].flatMap { nodes[$0].value }
  }

  /// Whether `key` has an entry (expired or not).
  @inlinable
  func contains(_ key: Key) -> Bool { index[key] != nil }

  /// Inserts or replaces `key`'s entry as the most recent.
  @inlinable
  mutating func set(_ value: Value, forKey key: Key, cost: Int, expiresAt: Double) {
    if let slot = index[key] {
      totalCost += cost - nodes[slot].cost
      nodes[slot].value = value
      nodes[slot].cost = cost
      nodes[slot].expiresAt = expiresAt
      moveToFront(slot)
      return
    }
    let node = Node(key: key, value: value, cost: cost, expiresAt: expiresAt, previous: Self.none, next: head)
    let slot: Int
    if let reused = free.popLast() {
      nodes[reused] = node
      slot = reused
    } else {
      nodes.append(node)
      slot = nodes.count - 1
    }
    if head != Self.none { nodes[head].previous = slot }
    head = slot
    if tail == Self.none { tail = slot }
    index[key] = slot
    totalCost += cost
  }

  /// Removes `key`'s entry and returns its value.
  @inlinable
  @discardableResult
  mutating func removeValue(forKey key: Key) -> Value? {
    guard let slot = index[key] else { return nil }
    let value = nodes[slot].value
    remove(slot: slot)
    return value
  }

  /// Removes the least recently used entry and returns it.
  @inlinable
  @discardableResult
  mutating func removeLeastRecent() -> (key: Key, value: Value)? {
    guard tail != Self.none, let value = nodes[tail].value else { return nil }
    let key = nodes[tail].key
    remove(slot: tail)
    return (key, value)
  }

  /// Removes every entry that expired by `now`; returns how many.
  @inlinable
  @discardableResult
  mutating func removeExpired(now: Double) -> Int {
    var removed = 0
    var slot = tail
    while slot != Self.none {
      let previous = nodes[slot].previous
      if nodes[slot].expiresAt <= now {
        remove(slot: slot)
        removed += 1
      }
      slot = previous
    }
    return removed
  }

  /// Removes every entry.
  @inlinable
  mutating func removeAll() {
    nodes.removeAll()
    free.removeAll()
    index.removeAll()
    head = Self.none
    tail = Self.none
    totalCost = 0
  }

  /// Keys from most to least recently used (for tests and debugging; O(n)).
  @inlinable
  var keysByRecency: [Key] {
    var keys: [Key] = []
    var slot = head
    while slot != Self.none {
      keys.append(nodes[slot].key)
      slot = nodes[slot].next
    }
    return keys
  }

  @inlinable
  mutating func moveToFront(_ slot: Int) {
    guard slot != head else { return }
    unlink(slot)
    nodes[slot].previous = Self.none
    nodes[slot].next = head
    if head != Self.none { nodes[head].previous = slot }
    head = slot
    if tail == Self.none { tail = slot }
  }

  @inlinable
  mutating func unlink(_ slot: Int) {
    let previous = nodes[slot].previous
    let next = nodes[slot].next
    if previous != Self.none { nodes[previous].next = next } else { head = next }
    if next != Self.none { nodes[next].previous = previous } else { tail = previous }
  }

  @inlinable
  mutating func remove(slot: Int) {
    unlink(slot)
    index[nodes[slot].key] = nil
    totalCost -= nodes[slot].cost
    // Drop the value now so its memory goes back even while the slot waits.
    nodes[slot].value = nil
    free.append(slot)
  }
}
