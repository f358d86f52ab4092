import Foundation

/// One fuzz target: a function that takes any bytes and must neither crash
/// nor hang on them, plus what seeds its corpus.
///
/// The body catches every ``Magpie/MagpieError`` (hostile bytes are meant to
/// fail with one); only a crash, a sanitizer report, a timeout or running
/// out of memory is a finding. The same body runs under libFuzzer
/// (`Scripts/fuzz.sh`, the `magpie-fuzz` driver) and over every checked-in
/// seed and regression input in the tests, so a harness cannot rot.
public struct FuzzHarness: Sendable {
  /// The harness's name: what `magpie-fuzz NAME` runs, the corpus folder
  /// `.build-fuzz/corpus/NAME` and the regression folder
  /// `Tests/MagpieTests/Fixtures/fuzz/NAME`. Lowercase letters, digits, `-`.
  public let name: String
  /// File extensions (lowercase, no dot) of the test fixtures that seed it.
  public let seedExtensions: Set<String>
  /// Seeds that are not fixture files (e.g. processor specs).
  public let seedTexts: [String]
  /// The longest input libFuzzer makes (`-max_len`); fixtures longer than
  /// this are not used as seeds.
  public let maxLength: Int
  private let body: @Sendable (Data) -> Void

  /// A harness named `name` running `body` over each input.
  public init(
    name: String, seedExtensions: Set<String> = [], seedTexts: [String] = [], maxLength: Int = 64 << 10,
    body: @escaping @Sendable (Data) -> Void
  ) {
    self.name = name
    self.seedExtensions = seedExtensions
    self.seedTexts = seedTexts
    self.maxLength = maxLength
    self.body = body
  }

  /// Runs the harness over one input.
  public func run(_ data: Data) {
    body(data)
  }
}
