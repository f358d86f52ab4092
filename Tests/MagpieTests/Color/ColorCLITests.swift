import Foundation
import Testing

@testable import Magpie

/// `magpie decode` writes the stored values of a tagged file (its contract:
/// raw decoder output) unless `--color srgb` asks for the conversion that
/// `convert`, `fetch`, `prefetch` and `demo` get from the library default.
@Suite struct ColorCLITests {
  typealias Support = ColorTestSupport

  @Test func decodeKeepsStoredColoursUnlessAsked() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("color/p3.jpg").path
    let stored = try await Self.decode(input, ["--out", dir.path("stored")])
    let converted = try await Self.decode(input, ["--out", dir.path("srgb"), "--color", "srgb"])
    let kept = try CoderRegistry.shared.decode(try Support.fixture("p3.jpg"), options: Support.preserving)
    #expect(stored == Support.rgb(kept.pixels))
    #expect(Support.maxDifference(converted, try Support.reference("p3")) <= Support.tolerance)
    let bad = try await CLIRunner.run(["decode", input, "--out", dir.path("bad"), "--color", "p3"])
    #expect(bad.status == 2)
  }

  @Test func convertConvertsToSRGB() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("color/p3.jpg").path
    let output = dir.path("p3.png")
    let result = try await CLIRunner.run(["convert", input, output])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try CoderRegistry.shared.decode(try Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(Support.maxDifference(Support.rgb(written.pixels), try Support.reference("p3")) <= Support.tolerance)
  }

  /// The RGB values `magpie decode` wrote for `input` with `arguments`.
  private static func decode(_ input: String, _ arguments: [String]) async throws -> [UInt8] {
    let result = try await CLIRunner.run(["decode", input] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let out = arguments[arguments.firstIndex(of: "--out")! + 1]
    let rgba = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/p3.jpg.rgba")))
    return stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] }
  }
}
