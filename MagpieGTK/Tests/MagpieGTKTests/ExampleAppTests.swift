import Foundation
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

  /// Peak memory as `ps` shows it: the example showing its seven photos at
  /// most its own run with nothing to show + 20 MB. The control serves
  /// each name 2 KB of zeros at 1 KB/s, so the same window is drawn with
  /// its placeholders for two seconds while the loader runs, and every
  /// load then fails: nothing decoded or held. (A 404 control ends before
  /// the window first draws.) The photos come from the network and are
  /// decoded in each run. Best of three runs each: a run's peak moves
  /// by a few MB with how the decoding threads happen to overlap.
  @Test func theExampleHoldsAtMostItsRunWithoutImagesPlus20MB() throws {
    let display = try XvfbDisplay.shared.get()
    let junk = FileManager.default.temporaryDirectory.appendingPathComponent("magpie-junk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: junk, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: junk) }
    for name in (0..<7).map({ "photo-0\($0).jpg" }) + ["missing.jpg"] {
      try Data(count: 2048).write(to: junk.appendingPathComponent(name))
    }
    // Each run of the photos under a path of its own: the example's disk
    // cache would serve a second run the small images it stored.
    let samples = (0..<3).map { "location /photos\($0)/ { alias \(GTKTestPaths.samples.path)/; }\n" }.joined()
    let origin = try NginxOrigin(
      serving: GTKTestPaths.samples,
      extraConfiguration: samples + "location /junk/ { alias \(junk.path)/; limit_rate 1k; }\n")
    defer { origin.stop() }
    func peak(_ base: (Int) -> String) throws -> Int {
      var peaks: [Int] = []
      for index in 0..<3 {
        let run = try ProbeRun.run(
          "magpie-gtk-example", [base(index), "--exit-when-loaded"], environment: display.environment,
          measuringPeakMemory: true)
        try #require(run.status == 0, "\(run.output)")
        peaks.append(try #require(run.peakResidentBytes, "\(run.output)"))
      }
      return peaks.min()!
    }
    let control = try peak { _ in origin.url("/junk/").absoluteString }
    let loaded = try peak { origin.url("/photos\($0)/").absoluteString }
    print(
      "example app peak RSS, best of 3: \(loaded >> 20) MB with its images, \(control >> 20) MB with nothing to show")
    #expect(loaded <= control + 20 << 20)
  }
}
