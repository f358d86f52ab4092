import Foundation

/// Where the GTK tests find the repository, its samples and the built probe.
enum GTKTestPaths {
  /// The repository root (above MagpieGTK/), found from this file's location.
  static let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    // MagpieGTK/Tests/MagpieGTKTests/Helpers/GTKTestPaths.swift -> repository root
    for _ in 0..<5 { url.deleteLastPathComponent() }
    return url
  }()

  /// `samples/`: the photos and animations the gallery shows.
  static let samples = repositoryRoot.appendingPathComponent("samples")

  /// The folder the test bundle was built in, beside the executables.
  static let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

  /// `MagpieGTK/.build/artifacts`: where UI tests save screenshots.
  static let artifacts = repositoryRoot.appendingPathComponent("MagpieGTK/.build/artifacts")
}
