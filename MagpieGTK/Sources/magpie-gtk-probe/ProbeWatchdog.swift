import CGTK4
import Foundation

/// Ends the probe with a failure if a check hangs, so a broken wake-up
/// fails the test instead of stalling CI. Nothing waits on it: checks
/// iterate the main loop until their events arrive.
enum ProbeWatchdog {
  nonisolated(unsafe) private static var name = ""

  /// Fails the probe after `seconds` of wall time.
  static func arm(seconds: UInt32, check: String) {
    name = check
    // A thread, not a GLib timeout: a check blocked outside the loop still
    // ends.
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: TimeInterval(seconds))
      print("FAIL \(ProbeWatchdog.name): timed out after \(seconds) s")
      exit(3)
    }
  }
}
