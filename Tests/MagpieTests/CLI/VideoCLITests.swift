#if canImport(MagpieVideo)
  import Foundation
  import Testing

  @testable import Magpie

  /// `magpie info clip.mp4` gives the video's duration, frame rate and
  /// codec; `magpie convert clip.mp4 poster.jpg` writes its first frame.
  @Suite struct VideoCLITests {
    private let clip = TestPaths.fixtures.appendingPathComponent("video/clip.mp4")

    @Test func infoDescribesTheVideo() async throws {
      let result = try await CLIRunner.run(["info", clip.path])
      #expect(result.status == 0, "\(result.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      #expect(json?["format"] as? String == "mp4")
      #expect(json?["width"] as? Int == 160)
      #expect(json?["codec"] as? String == "h264")
      #expect((json?["frame_rate"] as? Double).map { abs($0 - 10) < 0.01 } == true)
      #expect((json?["duration_ms"] as? Int).map { (1900...2100).contains($0) } == true)
    }

    @Test func convertWritesThePosterFrame() async throws {
      let dir = try TemporaryDirectory()
      let result = try await CLIRunner.run(["convert", clip.path, dir.path("poster.png")])
      #expect(result.status == 0, "\(result.stderr)")
      let poster = try PNGCoder().decode(
        Data(contentsOf: URL(fileURLWithPath: dir.path("poster.png"))), options: DecodeOptions())
      #expect(ReferenceFixture.maxDifference(poster.pixels, try VideoReference.frame(clip)) <= 1)
      let jpeg = try await CLIRunner.run(["convert", clip.path, dir.path("poster.jpg")])
      #expect(jpeg.status == 0, "\(jpeg.stderr)")
      #expect(ImageFormat.sniff(try Data(contentsOf: URL(fileURLWithPath: dir.path("poster.jpg")))) == .jpeg)
    }
  }
#endif
