import Foundation
import MagpieGTK

// The child process the GTK tests run: one check per run, chosen by the
// first argument, reported as "ok NAME" or "FAIL NAME: why" and the exit
// status. GTK and the dispatch source need the main thread from top-level
// code (no dispatch_main()), which a test process cannot give.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
  FileHandle.standardError.write(Data("usage: magpie-gtk-probe CHECK [SAMPLES [ORIGIN]]\n".utf8))
  exit(2)
}
ProbeWatchdog.arm(seconds: 60, check: name)
let failure: String?
if name == "mainloop" {
  failure = MainLoopCheck.run()
} else if name == "application-run" {
  failure = ApplicationCheck.run()
} else if name == "button-loads", arguments.count > 2 {
  let samples = URL(fileURLWithPath: arguments[1])
  failure =
    ProbeContext.start(samples: samples).map { ButtonLoadCheck.run($0, origin: arguments[2]) }
    ?? "gtk_init_check failed (no display?)"
} else if name == "picture-shows-preview", arguments.count > 2 {
  let samples = URL(fileURLWithPath: arguments[1])
  failure =
    ProbeContext.start(samples: samples).map { PreviewCheck.run($0, origin: arguments[2]) }
    ?? "gtk_init_check failed (no display?)"
} else if let check = WidgetChecks.named(name) ?? ViewFeatureChecks.named(name) {
  let samples = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "samples")
  failure = ProbeContext.start(samples: samples).map { check($0) } ?? "gtk_init_check failed (no display?)"
} else {
  failure = "no check named \(name)"
}
print(failure.map { "FAIL \(name): \($0)" } ?? "ok \(name)")
exit(failure == nil ? 0 : 1)
