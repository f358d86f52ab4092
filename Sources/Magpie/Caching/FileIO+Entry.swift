import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading ``DiskCacheEntry`` files: the header first, so a damaged or
/// oversized file is refused before its payload is read.
extension FileIO {
  /// The identity of one inode, to tell whether a path still names the file
  /// that was read.
  struct FileIdentity: Equatable {
    var device: UInt
    var inode: UInt
  }

  /// What reading one entry file found.
  enum EntryRead {
    /// A valid entry: its payload and its modification time before the read.
    case entry(Data, modified: Date)
    /// A file that is not a valid entry, why, and which inode it was.
    case corrupt(MagpieError, FileIdentity)
  }

  /// Reads the entry at `path`, or `nil` when there is no file. A valid
  /// entry's modification time is set to `touchingAt` when more than
  /// ``refreshInterval`` older (a failure to do so is ignored). Throws only
  /// for I/O failures (permissions, device errors); damage is
  /// ``EntryRead/corrupt(_:_:)``.
  static func readEntry(
    _ path: String, touchingAt date: Date, maximumPayload: Int
  ) throws(MagpieError) -> EntryRead? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw failure("open \(path)")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("stat \(path)") }
    let identity = FileIdentity(device: UInt(info.st_dev), inode: UInt(info.st_ino))
    let size = Int(info.st_size)
    var head = [UInt8](repeating: 0, count: DiskCacheEntry.headerSize)
    let headRead = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
    guard headRead >= 0 else { throw failure("read \(path)") }
    let parsed = head.withUnsafeBytes { raw in
      Result { () throws(MagpieError) in
        try DiskCacheEntry.parseHeader(
          UnsafeRawBufferPointer(rebasing: raw.prefix(headRead)), fileSize: size, maximumPayload: maximumPayload)
      }
    }
    let header: DiskCacheEntry.Header
    switch parsed {
    case .success(let value): header = value
    case .failure(let error): return .corrupt(error, identity)
    }
    var payload = Data(count: header.payloadLength)
    let read = payload.withUnsafeMutableBytes { readAll(fd, $0, at: DiskCacheEntry.headerSize) }
    guard read >= 0 else { throw failure("read \(path)") }
    let verified = payload.withUnsafeBytes { raw in
      head.withUnsafeBytes { headBytes in
        Result { () throws(MagpieError) in
          try DiskCacheEntry.verify(
            UnsafeRawBufferPointer(rebasing: raw.prefix(read)), header: header, headerBytes: headBytes)
        }
      }
    }
    if case .failure(let error) = verified { return .corrupt(error, identity) }
    let modified = modificationDate(info)
    // Like relatime: refresh only a stale access date, so most hits write
    // no inode. Expiry is counted in days; an hour's slack changes nothing.
    if date.timeIntervalSince(modified) > refreshInterval || date < modified {
      var times = [timespec(date), timespec(date)]
      _ = futimens(fd, &times)
    }
    return .entry(payload, modified: modified)
  }

  /// Removes `path` if it still names the inode `identity`: a corrupt file
  /// another process has since replaced with a good one stays.
  static func removeFile(_ path: String, ifStill identity: FileIdentity) {
    var info = stat()
    guard stat(path, &info) == 0, UInt(info.st_dev) == identity.device, UInt(info.st_ino) == identity.inode
    else { return }
    unlink(path)
  }

  /// Reads up to `buffer.count` bytes from `offset`; the count read (short
  /// at end of file), or -1 on failure.
  static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
    var done = 0
    while done < buffer.count {
      let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return -1 }
      if n == 0 { break }
      done += n
    }
    return done
  }
}
