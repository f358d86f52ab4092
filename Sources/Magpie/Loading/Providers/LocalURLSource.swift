import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of `file://` and `data:` URLs. A request for one loads
/// through the pipeline like a network URL (memory cache, shared work,
/// decoding, processors), but its bytes are read here, not downloaded: a
/// file on a dispatch thread (never a cooperative one, so a slow disk
/// cannot starve the pool), checked to be a regular file (a FIFO would
/// block its reader for good) no larger than the limit, before anything
/// is allocated for it; a `data:` URL decoded from its own text.
enum LocalURLSource {
  /// Whether `url` is a `file://` or `data:` URL.
  static func isLocal(_ url: URL?) -> Bool {
    guard let scheme = url?.scheme?.lowercased() else { return false }
    return scheme == "file" || scheme == "data"
  }

  /// The bytes `url` names, at most `maximumBytes` of them.
  static func data(of url: URL, maximumBytes: Int64) async throws(MagpieError) -> Data {
    if url.scheme?.lowercased() == "data" { return try decodeDataURL(url.absoluteString, maximumBytes: maximumBytes) }
    return try await readFileOffPool(url.path, maximumBytes: maximumBytes)
  }

  /// ``readFile(_:maximumBytes:)`` on a dispatch thread.
  static func readFileOffPool(_ path: String, maximumBytes: Int64) async throws(MagpieError) -> Data {
    typealias Outcome = Result<Data, MagpieError>
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(
          returning: Result { () throws(MagpieError) in try readFile(path, maximumBytes: maximumBytes) })
      }
    }
    return try result.get()
  }

  /// The regular file at `path`, read whole; its size is checked against
  /// `maximumBytes` before the buffer is made.
  static func readFile(_ path: String, maximumBytes: Int64) throws(MagpieError) -> Data {
    // Non-blocking: opening a FIFO must not wait for a writer.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw failure("cannot open", path) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure("cannot stat", path) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw MagpieError(.fileSystem, "\(path) is not a regular file")
    }
    let size = Int64(info.st_size)
    guard size <= maximumBytes else {
      throw MagpieError(.limitExceeded, "\(path) is \(size) bytes, over the \(maximumBytes)-byte limit")
    }
    var data = Data(count: Int(size))
    let filled = data.withUnsafeMutableBytes { buffer -> Int in
      var done = 0
      while done < buffer.count {
        let count = read(descriptor, buffer.baseAddress! + done, buffer.count - done)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return count < 0 ? -1 : done }
        done += count
      }
      return done
    }
    guard filled >= 0 else { throw failure("cannot read", path) }
    // A file that shrank meanwhile is what was there.
    if filled < data.count { data.removeSubrange(filled...) }
    return data
  }

  /// A `data:[<media type>][;base64],<payload>` URL's bytes (RFC 2397):
  /// the payload percent-decoded, then base64-decoded when marked so.
  static func decodeDataURL(_ text: String, maximumBytes: Int64) throws(MagpieError) -> Data {
    let bytes = Array(text.utf8)
    guard bytes.count > 5, let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else {
      throw MagpieError(.invalidArgument, "a data: URL needs a comma before its payload")
    }
    let header = String(decoding: bytes[5..<comma], as: UTF8.self).lowercased()
    guard let payload = percentDecoded(bytes[(comma + 1)...]) else {
      throw MagpieError(.invalidArgument, "the data: URL's payload has a broken percent escape")
    }
    var data = payload
    if header.hasSuffix(";base64") {
      // Whitespace is dropped (padded(_:)); any other stray byte fails.
      guard let decoded = Data(base64Encoded: padded(payload)) else {
        throw MagpieError(.invalidArgument, "the data: URL's base64 payload does not decode")
      }
      data = decoded
    }
    guard Int64(data.count) <= maximumBytes else {
      throw MagpieError(.limitExceeded, "the data: URL holds \(data.count) bytes, over the \(maximumBytes)-byte limit")
    }
    return data
  }

  private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> Data? {
    var out = Data(capacity: bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "%") else {
        out.append(byte)
        index += 1
        continue
      }
      guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
      else { return nil }
      out.append(high << 4 | low)
      index += 3
    }
    return out
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Base64 text with its `=` padding added where a URL left it out.
  private static func padded(_ text: Data) -> Data {
    let significant = text.filter { $0 != UInt8(ascii: "=") && !(9...13).contains($0) && $0 != 32 }
    let remainder = significant.count % 4
    return remainder == 0 ? significant : significant + Data(repeating: UInt8(ascii: "="), count: 4 - remainder)
  }

  private static func failure(_ what: String, _ path: String) -> MagpieError {
    MagpieError(.fileSystem, "\(what) \(path): \(String(cString: strerror(errno)))")
  }
}
