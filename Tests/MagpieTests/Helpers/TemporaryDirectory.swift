import CMagpieCodecs
import Foundation

/// A fresh folder under the system's temporary directory, removed when the
/// value is released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// A path inside the folder.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

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
    try? FileManager.default.removeItem(at: url)
  }
}
