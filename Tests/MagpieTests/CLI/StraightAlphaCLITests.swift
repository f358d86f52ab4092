import Foundation
import Testing

@testable import Magpie

/// `magpie decode` writes the straight RGBA values the file stores, not a
/// premultiplied round trip of them (Fixtures/alpha/rgba.png: every alpha
/// value 0-255 under varied colours).
@Suite struct StraightAlphaCLITests {
  @Test func decodeWritesTheFilesRGBAValuesExactly() async throws {
    let dir = try TemporaryDirectory()
    let input = TestPaths.fixtures.appendingPathComponent("alpha/rgba.png").path
    let out = dir.path("out")
    let result = try await CLIRunner.run(["decode", input, "--out", out])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/rgba.png.rgba")))
    let expected = try AlphaFixtures.frames("rgba.png")[0]
    try #require(written.count == expected.count)
    // Alpha 1-254 first: there a premultiplied round trip loses colour.
    let translucent = stride(from: 0, to: expected.count, by: 4).filter { (1...254).contains(expected[$0 + 3]) }
    let wrong = translucent.filter { Array(written[$0..<($0 + 4)]) != Array(expected[$0..<($0 + 4)]) }.count
    #expect(wrong == 0, "\(wrong) of \(translucent.count) pixels of alpha 1-254 differ")
    AlphaFixtures.expectPixels(written, equal: expected, width: 256, "rgba.png.rgba")
  }
}
