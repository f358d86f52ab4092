/// Marsaglia's xorshift64: a fixed, seedable stream, so a value can be
/// derived again from its key and generation by any process.
struct XorShift {
  private var state: UInt64

  init(seed: UInt64) { state = seed | 1 }

  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}
