import Foundation

/// Where tests find files: the repository, its fixtures and the third-party
/// conformance images, which a clone may not have.
enum TestPaths {
  /// The repository root, found from this file's location.
  static let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    // Tests/MagpieTests/Helpers/TestPaths.swift -> repository root
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url
  }()

  /// `Tests/MagpieTests/Fixtures`.
  static let fixtures = repositoryRoot.appendingPathComponent("Tests/MagpieTests/Fixtures")

  /// `Fixtures/photos`: the photo-like images Scripts/fixtures/make_photo_fixtures.py
  /// draws, for tests that need a photograph but not a particular one.
  static let photos = fixtures.appendingPathComponent("photos")

  /// The third-party conformance images: `$MAGPIE_TESTDATA` when set (a
  /// relative path counts from the repository root), else
  /// `../shared/testdata` beside the repository. Scripts/testdata-status.sh
  /// resolves it the same way for `make test`'s skip line.
  static let testData: URL = {
    let value = ProcessInfo.processInfo.environment["MAGPIE_TESTDATA"] ?? ""
    guard !value.isEmpty else {
      return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")
    }
    return URL(fileURLWithPath: value, relativeTo: repositoryRoot).standardizedFileURL
  }()

  /// `testData/pngsuite` when it holds every PngSuite file the reference
  /// (Fixtures/png/pngsuite_reference.json) describes; nil otherwise, and
  /// the PngSuite conformance tests skip.
  static let pngSuite: URL? = {
    guard let data = try? fixture("png/pngsuite_reference.json"),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let files = json["files"] as? [String: Any]
    else { return nil }
    return folder("pngsuite", holding: Array(files.keys))
  }()

  /// `testData/kodak` when it holds the four Kodak photos; nil otherwise,
  /// and the tests of those very files skip.
  static let kodak: URL? = folder("kodak", holding: ["kodim02.png", "kodim07.png", "kodim17.png", "kodim23.png"])

  /// Why the conformance tests of `suite` (a folder of `testData`) skip,
  /// for their `.enabled(if:)` traits; short, since Swift Testing repeats
  /// it for every test of a skipped suite (`make test` prints the details).
  static func missing(_ suite: String) -> String {
    "no \(suite)/ in \(testData.path) (MAGPIE_TESTDATA)"
  }

  /// `testData/name` when it exists and holds every one of `files`.
  private static func folder(_ name: String, holding files: [String]) -> URL? {
    let url = testData.appendingPathComponent(name)
    let present = files.allSatisfy { FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
    return present && !files.isEmpty ? url : nil
  }

  /// A photo-like fixture image by name (`door`, `garden`, `statue`, `birds`).
  static func photo(_ name: String) -> URL {
    photos.appendingPathComponent(name + ".png")
  }

  /// The bytes of a fixture file, by path relative to `Fixtures/`.
  static func fixture(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(relativePath))
  }
}
