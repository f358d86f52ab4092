#if canImport(MagpieJXL)
  import Foundation
  import Magpie
  import Testing

  /// `magpie info` and `magpie convert` on JPEG XL (the CLI registers
  /// JXLCoder through OptionalCoders).
  @Suite struct JXLCLITests {
    private func fixture(_ name: String) -> String {
      TestPaths.fixtures.appendingPathComponent("jxl/\(name)").path
    }

    @Test func infoReportsFramesAndDelays() async throws {
      let result = try await CLIRunner.run(["info", fixture("anim.jxl")])
      #expect(result.status == 0, "\(result.stderr)")
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(json["format"] as? String == "jxl")
      #expect(json["width"] as? Int == 32)
      #expect(json["height"] as? Int == 24)
      #expect(json["frames"] as? Int == 3)
      #expect(json["delays_ms"] as? [Int] == [100, 250, 40])
    }

    @Test func convertWritesAPNGOfTheReferencePixels() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("lossless.png")
      let result = try await CLIRunner.run(["convert", fixture("lossless.jxl"), out])
      #expect(result.status == 0, "\(result.stderr)")
      let decoded = try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: out)), options: DecodeOptions())
      #expect(decoded.pixels == (try ReferenceFixture.frame("jxl", "lossless.jxl")))
    }

    @Test func convertKeepsTheAnimation() async throws {
      let folder = try TemporaryDirectory()
      let out = folder.path("anim.webp")
      let result = try await CLIRunner.run(["convert", fixture("anim.jxl"), out])
      #expect(result.status == 0, "\(result.stderr)")
      let info = try WebPCoder().info(of: Data(contentsOf: URL(fileURLWithPath: out)))
      #expect(info.frameCount == 3)
      #expect(info.frameDurations == [.milliseconds(100), .milliseconds(250), .milliseconds(40)])
    }
  }
#endif
