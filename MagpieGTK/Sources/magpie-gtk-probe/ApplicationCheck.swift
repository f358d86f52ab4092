import CGTK4
import Foundation
import MagpieGTK

/// ``GTKMainLoop/run(_:arguments:)`` runs a `GtkApplication` with the main
/// actor inside its loop: a main-actor task started from another thread
/// during "activate" quits the application.
@MainActor
enum ApplicationCheck {
  /// Whether the task ran on the main thread.
  @MainActor
  final class Outcome {
    var quitFromTask = false
  }

  static func run() -> String? {
    let application = gtk_application_new("org.magpie.probe", G_APPLICATION_NON_UNIQUE)!
    let outcome = Outcome()
    SignalHandler.connect(UnsafeMutableRawPointer(application), "activate") {
      // An application with no window would exit at once; hold it open
      // until the task quits it.
      g_application_hold(UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self))
      let address = UInt(bitPattern: UnsafeMutableRawPointer(application))
      Thread.detachNewThread {
        Task { @MainActor in
          outcome.quitFromTask = Thread.isMainThread
          g_application_quit(UnsafeMutableRawPointer(bitPattern: address)?.assumingMemoryBound(to: GApplication.self))
        }
      }
    }
    let status = GTKMainLoop.run(UnsafeMutableRawPointer(application), arguments: ["magpie-gtk-probe"])
    g_object_unref(UnsafeMutableRawPointer(application))
    guard status == 0 else { return "g_application_run returned \(status)" }
    return outcome.quitFromTask ? nil : "the main-actor task did not run on the main thread"
  }
}
