import Foundation

/// Binary-safe command arguments as the `argv` hiredis takes.
enum RedisArguments {
  /// Runs `body` with a pointer to each argument's bytes, valid inside it.
  static func withPointers<R>(_ arguments: [Data], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
    // One contiguous copy: hiredis copies the bytes again as it formats.
    var joined = Data(capacity: arguments.reduce(1) { $0 + $1.count })
    var offsets: [Int] = []
    for argument in arguments {
      offsets.append(joined.count)
      joined.append(argument)
    }
    joined.append(0)
    return joined.withUnsafeBytes { raw in
      let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
      var argv: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(base + $0) }
      return argv.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
  }
}
