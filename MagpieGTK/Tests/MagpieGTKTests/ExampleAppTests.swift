import Testing

/// The example app the READMEs show (`Examples/PhotoGrid`), built with the
/// package and run as a user would, on a private Xvfb against a private
/// nginx: seven photos arrive, the missing one fails (its failure image
/// showing), and it exits when all have finished.
@Suite struct ExampleAppTests {
  @Test func theExampleLoadsSevenPhotosAndShowsOneFailure() throws {
    let display = try XvfbDisplay.shared.get()
    let origin = try NginxOrigin(serving: GTKTestPaths.samples)
    defer { origin.stop() }
    let run = try ProbeRun.run(
      "magpie-gtk-example", [origin.url("/").absoluteString, "--exit-when-loaded"], environment: display.environment)
    #expect(run.status == 0, "\(run.output)")
    let loaded = run.lines(prefixed: "loaded ").map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(loaded.sorted() == (0..<7).map { "photo-0\($0).jpg" }, "\(run.output)")
    #expect(run.lines(prefixed: "failed ") == ["missing.jpg: HTTP status"], "\(run.output)")
  }
}
