import Foundation
import Testing

@testable import Magpie

/// `magpie convert --process`: the whole spec of CONTRACT.md, run by the
/// built binary.
@Suite struct ProcessSpecCLITests {
  private func json(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  private func convert(_ spec: String, input: String, output: String) async throws -> (PixelSize, CLIRunner.Result) {
    let result = try await CLIRunner.run(["convert", input, output, "--process", spec])
    guard result.status == 0 else { return (PixelSize(width: 0, height: 0), result) }
    let record = try json(result.stdout)
    return (PixelSize(width: record["width"] as? Int ?? 0, height: record["height"] as? Int ?? 0), result)
  }

  @Test func everyProcessorOfTheSpecRuns() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.photo("birds").path
    let cases: [(String, PixelSize)] = [
      ("downsample(256x256)", PixelSize(width: 256, height: 171)),
      ("resize(100x100)", PixelSize(width: 100, height: 67)),
      ("resize(100x100,fill)", PixelSize(width: 100, height: 100)),
      ("resize(100x50,stretch)", PixelSize(width: 100, height: 50)),
      ("crop(64x48,top)", PixelSize(width: 64, height: 48)),
      ("crop(64x48)", PixelSize(width: 64, height: 48)),
      ("round(16)", PixelSize(width: 768, height: 512)),
      ("blur(3)", PixelSize(width: 768, height: 512)),
      ("tint(#FF8000)", PixelSize(width: 768, height: 512)),
      ("tint(#FF800080)", PixelSize(width: 768, height: 512)),
      ("grayscale", PixelSize(width: 768, height: 512)),
      ("rotate(90)", PixelSize(width: 512, height: 768)),
      ("rotate(180)", PixelSize(width: 768, height: 512)),
      ("flip(h)", PixelSize(width: 768, height: 512)),
      ("flip(v)", PixelSize(width: 768, height: 512)),
      ("downsample(200x200) | round(12) | rotate(270)", PixelSize(width: 133, height: 200)),
    ]
    for (index, (spec, size)) in cases.enumerated() {
      let (got, result) = try await convert(spec, input: input, output: dir.path("out\(index).png"))
      #expect(result.status == 0, "\(spec): \(result.stderr)")
      #expect(got == size, "\(spec)")
    }
  }

  @Test func roundedCornersReachTheFile() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.photo("garden").path
    let output = dir.path("round.png")
    let (_, result) = try await convert("downsample(64x64)|round(10)", input: input, output: output)
    #expect(result.status == 0, "\(result.stderr)")
    let image = try CoderRegistry.shared.decode(Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(image.pixels[0, 0][3] == 0)
    #expect(image.pixels[32, 20][3] == 255)
  }

  @Test(arguments: [
    "blur(-1)", "round(x)", "tint(#12345)", "tint(red)", "rotate(45)", "flip(d)", "resize(10x10,cover)",
    "crop(10x10,middle)", "grayscale(1)", "downsample(10)", "blur(1)|", "|blur(1)", "sharpen(2)",
  ])
  func badSpecsAreUsageErrors(spec: String) async throws {
    let result = try await CLIRunner.run(["convert", "in.png", "out.png", "--process", spec])
    #expect(result.status == 2, "\(spec): \(result.stderr)")
    #expect(result.stderr.hasPrefix("magpie: error: --process: "), "\(spec)")
  }

  @Test func animationsKeepTheirFramesThroughConvert() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("processing/anim.gif").path
    let output = dir.path("anim.gif")
    let (size, result) = try await convert("downsample(16x16)|flip(h)", input: input, output: output)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(size == PixelSize(width: 16, height: 12))
    let info = try CoderRegistry.shared.info(of: Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(info.frameCount == 5)
    #expect(info.loopCount == 3)
    #expect(info.frameDurations.map(\.wholeMilliseconds) == [30, 40, 100, 70, 200])
  }

  @Test(arguments: ["anim.png", "anim.webp"])
  func animationsConvertedToPNGOrWebPKeepTheirFrames(name: String) async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("processing/anim.gif").path
    let output = dir.path(name)
    let (size, result) = try await convert("flip(h)", input: input, output: output)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(size.width > 0)
    let written = try Data(contentsOf: URL(fileURLWithPath: output))
    let info = try CoderRegistry.shared.info(of: written)
    #expect(info.format == (name.hasSuffix(".png") ? .apng : .webp))
    #expect(info.frameCount == 5)
    #expect(info.loopCount == 3)
    #expect(info.frameDurations.map(\.wholeMilliseconds) == [30, 40, 100, 70, 200])
  }
}
