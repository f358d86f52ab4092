import Magpie

extension DecodeOptions {
  /// The flags that set the decode limits, for `magpie decode`.
  static let limitFlags: Set<String> = ["--max-pixels", "--max-bytes", "--max-frames", "--time-limit-ms"]

  /// The limits `arguments` set (`--max-pixels N`, `--max-bytes N`,
  /// `--max-frames N`, `--time-limit-ms N` with 0 for none), the library's
  /// defaults for those not given.
  mutating func applyLimits(from arguments: ParsedArguments) throws(CLIError) {
    maxPixelCount = try arguments.integer("--max-pixels", in: 1...Int.max, default: maxPixelCount)
    maxTotalByteCount = try arguments.integer("--max-bytes", in: 1...Int.max, default: maxTotalByteCount)
    maxFrameCount = try arguments.integer("--max-frames", in: 1...Int.max, default: maxFrameCount)
    let defaultMilliseconds = Int((decodeTimeLimit ?? .zero) / .milliseconds(1))
    let milliseconds = try arguments.integer("--time-limit-ms", in: 0...86_400_000, default: defaultMilliseconds)
    decodeTimeLimit = milliseconds == 0 ? nil : .milliseconds(milliseconds)
  }
}
