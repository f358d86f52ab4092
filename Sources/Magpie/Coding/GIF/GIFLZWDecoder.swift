/// Decompresses one GIF frame's LZW data (its data sub-blocks joined).
///
/// giflib still parses the file (records, descriptors, colour tables,
/// extensions) and hands over each frame's compressed blocks; this decoder
/// replaces its per-pixel `DGifGetLine` loop, which alone is slower than
/// pyvips' whole decode. Each code's string is written in one pass, back to
/// front along its prefix chain, whose length is kept per code, so there is
/// no stack and no per-pixel call.
///
/// Resumable: ``decode(into:count:)`` produces exactly `count` indices unless
/// the data ends, keeping a string that did not fit for the next call.
/// Damaged data (a code past the table, a first code that is not a colour,
/// data that ends before the end code) ends decoding early and sets
/// ``isDamaged``; every table index is checked, so nothing reads out of
/// bounds.
final class GIFLZWDecoder {
  private static let maxCodes = 4096

  /// Per code: prefix code (bits 0-11) and last byte (bits 12-19), packed
  /// so that walking a string back to front costs one load a byte.
  private let entries = UnsafeMutablePointer<UInt32>.allocate(capacity: maxCodes)
  /// Per code: its string's first 8 bytes, first byte lowest, so most
  /// strings are written with one 8-byte store.
  private let heads = UnsafeMutablePointer<UInt64>.allocate(capacity: maxCodes)
  /// Per code: the length of its string.
  private let length = UnsafeMutablePointer<UInt16>.allocate(capacity: maxCodes)
  /// A string that did not fit the caller's buffer, waiting to be copied out.
  private let pending = UnsafeMutablePointer<UInt8>.allocate(capacity: maxCodes)
  private var pendingStart = 0
  private var pendingEnd = 0

  private var data = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  private var position = 0
  private var bits: UInt64 = 0
  private var bitCount = 0

  private var minimumCodeSize = 2
  private var codeSize = 3
  private var clearCode = 4
  private var nextCode = 6
  private var previous = -1

  /// Whether the end code (or the end of the data) has been reached.
  private(set) var hasEnded = false
  /// Whether decoding stopped at damaged data rather than the end code.
  private(set) var isDamaged = false

  init() {}

  deinit {
    entries.deallocate()
    heads.deallocate()
    length.deallocate()
    pending.deallocate()
  }

  /// Starts a frame: `data` is its compressed bytes (it must stay valid
  /// while decoding) and `minimumCodeSize` the byte before them (0 to 8).
  func reset(data: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int) {
    self.data = data
    position = 0
    bits = 0
    bitCount = 0
    pendingStart = 0
    pendingEnd = 0
    hasEnded = false
    isDamaged = false
    self.minimumCodeSize = min(max(minimumCodeSize, 0), 8)
    clearCode = 1 << self.minimumCodeSize
    for i in 0..<clearCode {
      entries[i] = UInt32(i) << 12
      heads[i] = UInt64(i)
      length[i] = 1
    }
    restart()
  }

  private func restart() {
    codeSize = minimumCodeSize + 1
    nextCode = clearCode + 2
    previous = -1
  }

  /// Writes up to `count` indices to `out`; fewer only once the data has
  /// ended (see ``hasEnded`` and ``isDamaged``).
  func decode(into out: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    var produced = 0
    if pendingStart < pendingEnd {
      let n = min(count, pendingEnd - pendingStart)
      out.update(from: pending + pendingStart, count: n)
      pendingStart += n
      produced = n
    }
    guard produced < count && !hasEnded, let input = data.baseAddress else {
      if produced < count && !hasEnded {
        hasEnded = true
        isDamaged = true
      }
      return produced
    }
    // The hot loop keeps its state in locals (the class's stored properties
    // would be reloaded after every store through a pointer).
    let inputCount = data.count
    var position = self.position
    var bits = self.bits
    var bitCount = self.bitCount
    var codeSize = self.codeSize
    var mask = (UInt64(1) &<< UInt64(codeSize)) &- 1
    var nextCode = self.nextCode
    var previous = self.previous
    let clearCode = self.clearCode
    let entries = self.entries
    let heads = self.heads
    let length = self.length
    var damaged = false
    var ended = false

    decoding: while produced < count {
      if bitCount < codeSize {
        if position &+ 8 <= inputCount {
          // Load 8 bytes, keep the whole ones that fit; re-loading the same
          // bytes later ORs identical bits into the same places.
          let word = UInt64(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self))
          bits |= word &<< UInt64(bitCount)
          let taken = (63 &- bitCount) &>> 3
          position &+= taken
          bitCount &+= taken &<< 3
        } else {
          while bitCount < codeSize {
            guard position < inputCount else {
              // The blocks ran out without an end code.
              ended = true
              damaged = true
              break decoding
            }
            bits |= UInt64(input[position]) &<< UInt64(bitCount)
            position &+= 1
            bitCount &+= 8
          }
        }
      }
      let code = Int(truncatingIfNeeded: bits & mask)
      bits = bits &>> UInt64(codeSize)
      bitCount &-= codeSize

      // Colours and table codes share one path: mixing them is what
      // photographic GIFs do, and a branch between them would mispredict.
      if UInt(bitPattern: code &- clearCode) < 2 || previous < 0 || code > nextCode {
        if code == clearCode {
          codeSize = minimumCodeSize &+ 1
          mask = (UInt64(1) &<< UInt64(codeSize)) &- 1
          nextCode = clearCode &+ 2
          previous = -1
          continue
        }
        if previous < 0 && code < clearCode {
          // The first code after a clear: a colour, defining nothing.
          out[produced] = UInt8(truncatingIfNeeded: code)
          produced &+= 1
          previous = code
          continue
        }
        // The end code; or damage: a first code that is not a colour, or
        // a code past the table.
        ended = true
        damaged = code != clearCode &+ 1
        break
      }
      if nextCode < GIFLZWDecoder.maxCodes {
        // Define nextCode as previous + the first byte of the current string
        // (previous's own first byte when code is nextCode itself).
        let before = length[previous]
        let firstByte = heads[code == nextCode ? previous : code] & 0xFF
        let head = heads[previous]
        heads[nextCode] = before < 8 ? head | firstByte &<< UInt64(before &<< 3) : head
        entries[nextCode] = UInt32(truncatingIfNeeded: previous) | UInt32(truncatingIfNeeded: firstByte) << 12
        length[nextCode] = before &+ 1
        nextCode &+= 1
        if nextCode >= 1 &<< codeSize && codeSize < 12 {
          codeSize &+= 1
          mask = (UInt64(1) &<< UInt64(codeSize)) &- 1
        }
      }
      previous = code
      let stringLength = Int(length[code])
      let room = count &- produced
      if room >= 8 && stringLength <= room {
        // The head in one store (bytes past the string are overwritten by
        // the next strings or ignored), then any rest back to front.
        UnsafeMutableRawPointer(out + produced).storeBytes(of: heads[code].littleEndian, as: UInt64.self)
        if stringLength > 8 {
          var entry = entries[code]
          var p = stringLength &- 1
          while p >= 8 {
            out[produced &+ p] = UInt8(truncatingIfNeeded: entry >> 12)
            entry = entries[Int(entry & 0xFFF)]
            p &-= 1
          }
        }
        produced &+= stringLength
        continue
      }
      // Near the end of the buffer: byte by byte, into `pending` when the
      // string does not fit.
      let target = stringLength <= room ? out + produced : pending
      var entry = entries[code]
      var p = stringLength &- 1
      while p > 0 {
        target[p] = UInt8(truncatingIfNeeded: entry >> 12)
        entry = entries[Int(entry & 0xFFF)]
        p &-= 1
      }
      target[0] = UInt8(truncatingIfNeeded: entry >> 12)
      if stringLength <= room {
        produced &+= stringLength
      } else {
        out.advanced(by: produced).update(from: pending, count: room)
        pendingStart = room
        pendingEnd = stringLength
        produced = count
      }
    }
    self.position = position
    self.bits = bits
    self.bitCount = bitCount
    self.codeSize = codeSize
    self.nextCode = nextCode
    self.previous = previous
    hasEnded = ended
    isDamaged = damaged
    return produced
  }
}
