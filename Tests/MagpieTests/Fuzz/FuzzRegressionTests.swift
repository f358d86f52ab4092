import Foundation
import MagpieFuzzHarnesses
import Testing

/// Every fuzz harness over its seed corpus and every input it ever crashed
/// on (Fixtures/fuzz/NAME, kept after the fix): the same functions
/// libFuzzer runs, so a harness that stops compiling or a fixed crash that
/// comes back fails `make test`.
@Suite(.timeLimit(Sanitizer.suiteTimeLimit)) struct FuzzRegressionTests {
  @Test(arguments: FuzzHarnesses.all.map(\.name))
  func harnessSurvivesItsSeedsAndRegressions(_ name: String) throws {
    let harness = try #require(FuzzHarnesses.named(name))
    let seeds = harness.seeds(fixtures: TestPaths.fixtures)
    #expect(!seeds.isEmpty, "\(name) has no seeds: its fixtures moved or grew past \(harness.maxLength) bytes")
    for input in seeds + harness.regressionInputs(fixtures: TestPaths.fixtures) {
      harness.run(input.data)
    }
  }

  /// What `make fuzz` runs is the registry: Scripts/fuzz.sh takes the
  /// names from `magpie-fuzz list`, which prints `FuzzHarnesses.all`.
  @Test func registryNamesEveryHarnessMakeFuzzRuns() throws {
    var expected: Set = [
      "sniff", "jpeg", "jpeg-progressive", "png", "gif", "webp", "bmp", "ico", "icc", "metadata", "process-spec",
      "http-head", "cache-entry",
    ]
    #if canImport(MagpieAVIF)
      expected.insert("avif")
    #endif
    #if canImport(MagpieHEIF)
      expected.insert("heif")
    #endif
    #if canImport(MagpieJXL)
      expected.insert("jxl")
    #endif
    #if canImport(MagpieSVG)
      expected.insert("svg")
    #endif
    #if canImport(MagpiePDF)
      expected.insert("pdf")
    #endif
    #if canImport(MagpieTIFF)
      expected.insert("tiff")
    #endif
    #if canImport(MagpieVideo)
      expected.insert("video")
    #endif
    #if canImport(MagpieServer)
      expected.formUnion(["serve-url", "serve-signature"])
    #endif
    let names = FuzzHarnesses.all.map(\.name)
    #expect(Set(names) == expected)
    #expect(Set(names).count == names.count, "two harnesses share a name")
    for name in names {
      #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name) is no folder-safe name")
    }
    let script = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Scripts/fuzz.sh"), encoding: .utf8)
    #expect(
      script.contains("--product magpie-fuzz") && script.contains("\"$driver\" list"),
      "Scripts/fuzz.sh must take the harness names from the registry")
    let makefile = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Makefile"), encoding: .utf8)
    #expect(makefile.contains("Scripts/fuzz.sh"))
  }

  /// A regression folder names a harness that replays it (a renamed
  /// harness cannot strand its crashes).
  @Test func everyRegressionFolderBelongsToAHarness() throws {
    let root = TestPaths.fixtures.appendingPathComponent("fuzz")
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    let known = Set(FuzzHarnesses.all.map(\.name))
    // The optional coders' harnesses, whose folders stay where they are not built.
    let optional: Set = ["avif", "heif", "jxl", "tiff", "svg", "pdf", "video", "serve-url", "serve-signature"]
    for folder in folders where !folder.hasPrefix(".") {
      #expect(known.contains(folder) || optional.contains(folder), "Fixtures/fuzz/\(folder)")
    }
  }
}
