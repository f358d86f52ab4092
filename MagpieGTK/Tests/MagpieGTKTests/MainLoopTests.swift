import Testing

/// The main actor runs inside GLib's main loop (in a child process: the
/// test runner owns this one's main thread).
@Suite struct MainLoopTests {
  @Test func mainActorTasksAndMainQueueBlocksRunWhileGLibIterates() throws {
    let run = try ProbeRun.run("magpie-gtk-probe", ["mainloop"])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == ["mainloop"])
  }

  /// GTKMainLoop.run: a GtkApplication (on the test's Xvfb: GTK needs a
  /// display to start) quit by a main-actor task from another thread.
  @Test func applicationRunHostsTheMainActor() throws {
    let display = try XvfbDisplay.shared.get()
    let run = try ProbeRun.run("magpie-gtk-probe", ["application-run"], environment: display.environment)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == ["application-run"], "\(run.output)")
  }
}
