import CGTK4
import CMagpieGTK

/// Runs the Swift main actor inside GLib's main loop. On Linux the main
/// actor's executor is the main dispatch queue; ``install()`` adds one
/// GSource to the default main context that drains that queue whenever
/// libdispatch signals work, so `Task { @MainActor in }`,
/// `DispatchQueue.main.async` and every Magpie completion run while
/// `g_application_run` or `g_main_context_iteration` runs.
@MainActor
public enum GTKMainLoop {
  /// Adds the dispatch source to the default main context (once). Call on
  /// the main thread from synchronous top-level code: after
  /// `dispatch_main()` the main queue is no longer the main thread's.
  public static func install() {
    _ = magpie_dispatch_source_install()
  }

  /// Removes the dispatch source.
  public static func uninstall() {
    magpie_dispatch_source_remove()
  }

  /// Runs one iteration of the default main context; with `blocking`,
  /// waits for an event (a main-queue job counts) first. Whether it
  /// dispatched anything.
  @discardableResult
  public static func iterate(blocking: Bool = true) -> Bool {
    g_main_context_iteration(nil, blocking ? 1 : 0) != 0
  }

  /// Iterates until `condition` holds, checking it after each event.
  public static func iterate(until condition: () -> Bool) {
    while !condition() { iterate() }
  }

  /// Dispatches every event ready now without waiting for more.
  public static func drainPending() {
    while g_main_context_pending(nil) != 0 { iterate(blocking: false) }
  }

  /// Installs the source and runs `application` (a `GApplication`, e.g. a
  /// `GtkApplication`) with the process arguments; its exit status.
  public static func run(_ application: UnsafeMutableRawPointer, arguments: [String] = CommandLine.arguments) -> Int32 {
    install()
    var cStrings = arguments.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    return cStrings.withUnsafeMutableBufferPointer { argv in
      g_application_run(application.assumingMemoryBound(to: GApplication.self), Int32(argv.count), argv.baseAddress)
    }
  }
}
