import Foundation

/// Binary-safe command arguments as the `argv` hiredis takes.
enum RedisArguments {
  /// Runs `body` with a pointer to each argument's bytes and their
  /// lengths, valid inside it.
  static func withPointers<R>(
    _ arguments: [Data], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
  ) -> R {
    // One contiguous copy (hiredis copies the bytes again as it formats),
    // in scratch space that is on the stack for a short command.
    let total = arguments.reduce(1) { $0 + $1.count }
    return withUnsafeTemporaryAllocation(byteCount: total, alignment: 1) { joined in
      withUnsafeTemporaryAllocation(of: UnsafePointer<CChar>?.self, capacity: arguments.count) { argv in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: arguments.count) { lengths in
          var offset = 0
          for (index, argument) in arguments.enumerated() {
            let start = joined.baseAddress! + offset
            argument.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            argv[index] = UnsafePointer(start.assumingMemoryBound(to: CChar.self))
            lengths[index] = argument.count
            offset += argument.count
          }
          joined[offset] = 0
          return body(argv.baseAddress!, lengths.baseAddress!)
        }
      }
    }
  }

  /// `text`'s UTF-8 bytes, copied in one piece (not byte by byte).
  static func bytes(_ text: String) -> Data {
    var text = text
    return text.withUTF8 { Data($0) }
  }
}
