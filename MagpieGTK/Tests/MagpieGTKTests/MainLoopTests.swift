import Testing

/// The main actor runs inside GLib's main loop (in a child process: the
/// test runner owns this one's main thread).
@Suite struct MainLoopTests {
  @Test func mainActorTasksAndMainQueueBlocksRunWhileGLibIterates() throws {
    let run = try ProbeRun.run("magpie-gtk-probe", ["mainloop"])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == ["mainloop"])
  }
}
