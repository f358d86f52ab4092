import Testing

/// The binding's widgets on a private Xvfb display, one probe process per
/// check (see `magpie-gtk-probe`'s WidgetChecks for what each checks).
@Suite struct WidgetTests {
  static let checks = [
    "texture-formats", "picture-loads", "picture-animates-and-pauses", "fade-transition", "image-widget-loads",
    "spinner-runs-while-loading", "button-follows-state-flags", "snapshot-shows-image", "picture-retries-on-click",
    "stack-transitions", "picture-loads-at-its-size", "progress-bar-follows-load",
  ]

  @Test(arguments: checks)
  func widgetCheck(_ name: String) throws {
    let display = try XvfbDisplay.shared.get()
    var environment = display.environment
    environment["MAGPIE_PROBE_ARTIFACTS"] = GTKTestPaths.artifacts.appendingPathComponent("widgets").path
    let run = try ProbeRun.run("magpie-gtk-probe", [name, GTKTestPaths.samples.path], environment: environment)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == [name], "\(run.output)")
  }

  /// ButtonView through its binding: per-state loads from a private nginx,
  /// shown as GTK's state flags change.
  @Test func buttonLoadsPerStateThroughTheBinding() throws {
    let display = try XvfbDisplay.shared.get()
    let origin = try NginxOrigin(serving: GTKTestPaths.samples)
    defer { origin.stop() }
    let run = try ProbeRun.run(
      "magpie-gtk-probe", ["button-loads", GTKTestPaths.samples.path, origin.url("/").absoluteString],
      environment: display.environment)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == ["button-loads"], "\(run.output)")
  }

  /// A progressive JPEG at a trickle (nginx's `limit_rate`): previews
  /// before the final image, screenshots of both saved.
  @Test func aSlowProgressiveJPEGShowsAPreviewFirst() throws {
    let display = try XvfbDisplay.shared.get()
    let origin = try NginxOrigin(
      serving: GTKTestPaths.samples,
      extraConfiguration: "location /slow/ { alias \(GTKTestPaths.samples.path)/; limit_rate 48k; }\n")
    defer { origin.stop() }
    var environment = display.environment
    environment["MAGPIE_PROBE_ARTIFACTS"] = GTKTestPaths.artifacts.appendingPathComponent("widgets").path
    let run = try ProbeRun.run(
      "magpie-gtk-probe", ["picture-shows-preview", GTKTestPaths.samples.path, origin.url("/").absoluteString],
      environment: environment)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines(prefixed: "ok ") == ["picture-shows-preview"], "\(run.output)")
  }
}
