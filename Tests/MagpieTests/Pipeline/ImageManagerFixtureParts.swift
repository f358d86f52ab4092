@testable import Magpie

/// A fresh loader, cache folder and counting registry for one
/// ``ImageManagerFixture`` suite instance (one per test).
struct ImageManagerFixtureParts {
  let loader = MockDataLoader()
  let directory: TemporaryDirectory
  let coder = CountingCoder()
  let registry: CoderRegistry
  /// What the fixture's managers and downloaders report.
  let events = EngineEventLog()

  init() throws {
    directory = try TemporaryDirectory()
    registry = CoderRegistry(builtIn: [coder])
  }
}
