import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Temporary files and their writers: a writer holds an exclusive `flock` on
/// its temporary file from creation until it is renamed into place, and the
/// kernel drops the lock when the writer dies (even by `SIGKILL`). So a
/// temporary file nobody holds a lock on is a dead writer's leftover, which
/// ``DiskCache/clean()`` can remove at once rather than after an hour.
extension FileIO {
  /// Creates a new temporary file at `path` and takes its lock. `nil` (with
  /// `errno` set) when it cannot be created; retries are the caller's.
  static func createLockedTemporary(_ path: String) -> Int32? {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return nil }
    // A cleaner may lock and unlink the file between open and flock; then
    // the inode has no name left and the write would be lost: start over.
    var info = stat()
    while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
    if fstat(fd, &info) == 0 && info.st_nlink == 0 {
      close(fd)
      return createLockedTemporary(path)
    }
    return fd
  }

  /// Removes the temporary file at `path` if no live writer holds it;
  /// whether it did. File systems without `flock` keep it (the age rule in
  /// ``DiskCache/clean()`` removes it later).
  static func removeIfAbandoned(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
    // Unlinked while locked: a writer that opened it but had not locked it
    // yet sees no name left and starts over.
    return unlink(path) == 0
  }
}
