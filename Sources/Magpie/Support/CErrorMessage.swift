/// Runs `body` with a zeroed 512-byte buffer and its size, for a C call
/// that writes why it failed into it (the SVG, PDF and video loaders), and
/// stores what it wrote in `message` ("" when nothing); `body`'s result.
package func withCErrorMessage<R>(
  _ message: inout String, _ body: (UnsafeMutablePointer<CChar>, Int) -> R
) -> R {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
    let start = buffer.baseAddress!
    start.initialize(to: 0)
    let result = body(start, buffer.count)
    message = String(cString: start)
    return result
  }
}
