import CMagpieCodecs
import Foundation

@testable import Magpie

/// Every folder ``TemporaryDirectory`` made in this process, removed once
/// more at exit: a write-behind store a test did not wait for can land
/// while `deinit` removes the folder, which then fails with the folder not
/// empty and would stay behind in /tmp. Behind the project's `Lock`, not
/// `Mutex`, whose futex ThreadSanitizer does not see (it reported the
/// appends of two suites' fixtures as a race).
private let madeFolders = Lock<[URL]>([])

private let sweepAtExit: Void = {
  atexit {
    for url in madeFolders.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
  }
}()

/// A fresh folder under the system's temporary directory, removed when the
/// value is released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    sweepAtExit
    madeFolders.withLock { $0.append(url) }
  }

  /// A path inside the folder.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// A folder `www` inside this one holding copies of the repository's
  /// `samples/` files named `names`: the root a test's origin serves.
  func servingSamples(_ names: [String]) throws -> URL {
    let root = url.appendingPathComponent("www")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for name in names {
      try FileManager.default.copyItem(
        at: TestPaths.repositoryRoot.appendingPathComponent("samples/\(name)"), to: root.appendingPathComponent(name))
    }
    return root
  }

  /// Copies `name`, already served from `root` (``servingSamples(_:)``),
  /// to `path` below it, making its folder: a location of its own
  /// (`basic/a.png`) for nginx rules to protect or decorate.
  func copy(_ name: String, in root: URL, to path: String) throws {
    let target = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: target)
  }

  /// Whether the file system under the folder takes user extended
  /// attributes (where ``DiskCache`` keeps entry metadata).
  var supportsUserAttributes: Bool {
    let probe = path(".xattr-probe")
    let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return false }
    defer {
      close(fd)
      unlink(probe)
    }
    return mp_fsetxattr(fd, "user.magpie.probe", "x", 1) == 0
  }

  deinit {
    // Forgotten only once gone, so the sweep at exit retries a failure.
    if (try? FileManager.default.removeItem(at: url)) != nil {
      madeFolders.withLock { folders in folders.removeAll { $0 == url } }
    }
  }
}
