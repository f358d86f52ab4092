/// When a ``DiskCache`` entry reaches the disk itself, not only the
/// kernel's page cache.
///
/// Either way a write is atomic (a temporary file renamed into place) and a
/// process killed mid-write, `kill -9` included, leaves nothing under a
/// real name: what a process wrote before it died is the kernel's and stays.
/// The modes differ only after a power loss or a kernel crash.
public enum DiskCacheDurability: Sendable, Hashable {
  /// Each entry is flushed (`fsync`) before it is renamed into place: once
  /// ``DiskCache/store(_:forKey:metadata:)`` returns, the entry survives a
  /// power loss. Costs one disk flush, a journal commit, per entry.
  case eachEntry

  /// Entries are renamed into place without waiting for the disk. The
  /// kernel writes them back on its own schedule (Linux: within about 30
  /// seconds by default), and ``DiskCache/flush()`` makes everything stored
  /// so far durable at once. A power loss can lose the entries of its last
  /// moments or leave them empty or short; their header then no longer
  /// matches, so reads report misses and delete them, never wrong bytes.
  /// Kingfisher, Nuke and SDWebImage flush nothing either. The default.
  case deferred
}
