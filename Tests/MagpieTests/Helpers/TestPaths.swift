import Foundation

/// Where tests find files: the repository, its fixtures and the shared
/// conformance images beside it.
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

  /// A photo-like fixture image by name (`door`, `garden`, `statue`, `birds`).
  static func photo(_ name: String) -> URL {
    photos.appendingPathComponent(name + ".png")
  }

  /// `../shared/testdata`, the third-party conformance images.
  static let sharedTestData = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")

  /// The bytes of a fixture file, by path relative to `Fixtures/`.
  static func fixture(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(relativePath))
  }
}
