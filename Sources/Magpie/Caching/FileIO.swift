import CMagpieCodecs
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The POSIX file operations the disk cache needs, with errors that name
/// the file and the system's reason. Plain system calls rather than
/// `FileManager`, for control over modes, `fsync`, `O_EXCL` and timestamps.
enum FileIO {
  /// A regular file found in a folder.
  struct Entry {
    var name: String
    var path: String
    var size: Int
    var modified: Date
  }

  /// Size and modification time of one file.
  struct Status {
    var size: Int
    var modified: Date
  }

  /// How stale a file's access date must be before a read refreshes it.
  static let refreshInterval: TimeInterval = 3600

  /// Creates `path` and any missing parents with mode 0700.
  static func createPrivateDirectory(_ path: String) throws(MagpieError) {
    var prefix = ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw failure("create folder \(prefix)")
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw failure("open folder \(path)") }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw MagpieError(.fileSystem, "\(path) exists and is not a folder")
    }
  }

  /// The extended attribute that carries an entry's metadata.
  static let metadataAttribute = "user.magpie.metadata"

  /// Writes `data` to a temporary file beside `path`, with `metadata` (when
  /// given and the file system takes user extended attributes) in
  /// ``metadataAttribute``, flushes it to disk when `flush` is set, stamps
  /// it `modifiedAt`, then renames it over `path`: the bytes and their
  /// metadata appear together or not at all. On any failure the temporary
  /// file is removed and `path` is untouched. The temporary file stays
  /// locked until renamed (see ``createLockedTemporary(_:)``).
  static func writeAtomically(
    _ data: Data, header: [UInt8] = [], to path: String, modifiedAt date: Date, metadata: Data? = nil,
    flush: Bool = true
  ) throws(MagpieError) {
    let folder = (path as NSString).deletingLastPathComponent
    let temporary = folder + "/" + DiskCache.temporaryPrefix + randomSuffix()
    guard let fd = createLockedTemporary(temporary) else { throw failure("create \(temporary)") }
    var closed = false
    do throws(MagpieError) {
      guard header.withUnsafeBytes({ writeAll(fd, $0) }) >= 0, data.withUnsafeBytes({ writeAll(fd, $0) }) >= 0
      else { throw failure("write \(path)") }
      // Unsupported (ENOTSUP) or too large (E2BIG, ENOSPC): the bytes are
      // still worth keeping, without their metadata.
      if let metadata {
        _ = metadata.withUnsafeBytes { mp_fsetxattr(fd, metadataAttribute, $0.baseAddress, $0.count) }
      }
      guard !flush || fsync(fd) == 0 else { throw failure("flush \(path)") }
      var times = [timespec(date), timespec(date)]
      _ = futimens(fd, &times)
      guard rename(temporary, path) == 0 else { throw failure("rename into \(path)") }
      closed = true
      // After the rename: the file is in place, and a failed close loses
      // nothing (the kernel has the bytes; with `flush`, so has the disk).
      _ = close(fd)
    } catch {
      if !closed { close(fd) }
      unlink(temporary)
      throw error
    }
  }

  /// The metadata attached to the file at `path` by
  /// ``writeAtomically(_:header:to:modifiedAt:metadata:)``, or `nil` when
  /// the file, the attribute or support for it is missing.
  static func metadata(atPath path: String) -> Data? {
    var buffer = [UInt8](repeating: 0, count: 1024)
    var length = mp_getxattr(path, metadataAttribute, &buffer, buffer.count)
    if length < 0 && errno == ERANGE {
      // Larger than the first guess: ask for the size, then read it.
      let size = mp_getxattr(path, metadataAttribute, nil, 0)
      guard size > 0 else { return nil }
      buffer = [UInt8](repeating: 0, count: size)
      length = mp_getxattr(path, metadataAttribute, &buffer, buffer.count)
    }
    guard length >= 0 else { return nil }
    return Data(buffer[..<length])
  }

  /// Writes back everything dirty on the file system that holds `path`
  /// (`syncfs`), so files renamed into place there survive a power loss.
  static func syncFileSystem(holding path: String) throws(MagpieError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure("open folder \(path)") }
    defer { close(fd) }
    guard mp_syncfs(fd) == 0 else { throw failure("flush the file system holding \(path)") }
  }

  /// Writes all of `bytes` to `fd`; the count, or -1 on failure.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    var done = 0
    while done < bytes.count {
      let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return -1 }
      done += n
    }
    return done
  }

  /// Removes a file; a missing file is not an error.
  static func removeFile(_ path: String) throws(MagpieError) {
    if unlink(path) != 0 && errno != ENOENT { throw failure("remove \(path)") }
  }

  /// Size and modification time, or `nil` if the file does not exist.
  static func status(_ path: String) -> Status? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Status(size: Int(info.st_size), modified: modificationDate(info))
  }

  /// The regular files in `folder`; names starting with `.` (temporary
  /// files) only when asked.
  static func listFiles(_ folder: String, includingHidden: Bool = false) throws(MagpieError) -> [Entry] {
    guard let dir = opendir(folder) else { throw failure("list \(folder)") }
    defer { closedir(dir) }
    let dirFD = dirfd(dir)
    var entries: [Entry] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name == "." || name == ".." || (!includingHidden && name.hasPrefix(".")) { continue }
      var info = stat()
      // The file may vanish between readdir and stat (another process
      // cleaning): skip it.
      guard fstatat(dirFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      entries.append(
        Entry(name: name, path: folder + "/" + name, size: Int(info.st_size), modified: modificationDate(info)))
    }
    return entries
  }

  static func modificationDate(_ info: stat) -> Date {
    Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
  }

  private static func randomSuffix() -> String {
    var generator = SystemRandomNumberGenerator()
    return String(generator.next(), radix: 16) + String(getpid(), radix: 16)
  }

  /// `what` failed for the reason `errno` gives.
  static func failure(_ what: String) -> MagpieError {
    let code = errno
    return MagpieError(.fileSystem, "\(what): \(String(cString: strerror(code)))")
  }
}

extension timespec {
  init(_ date: Date) {
    let seconds = date.timeIntervalSince1970
    let whole = seconds.rounded(.down)
    self.init(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
  }
}
