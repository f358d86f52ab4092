/// The live counts the window title shows: loads running, and where the
/// finished ones came from.
@MainActor
final class GalleryStats {
  var loading = 0
  var memory = 0
  var disk = 0
  var network = 0
  var failed = 0
  /// Called after every change (the window updates its title).
  var changed: () -> Void = {}

  /// The title text.
  var title: String {
    "Magpie gallery: loading \(loading), memory \(memory), disk \(disk), network \(network), failed \(failed)"
  }
}
