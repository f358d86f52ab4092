import Foundation
import Testing

@testable import Magpie

/// The GIF and WebP fixtures written by Scripts/fixtures/make_gif_webp_fixtures.py,
/// their manifests and the helpers the GIF and WebP suites share.
@Suite struct GIFWebPFixtureTests {
  /// One manifest entry: what the reference holds (straight RGBA, as the
  /// file stores it).
  struct Entry: Decodable {
    var width: Int
    var height: Int
    var frames: Int
    var delays_ms: [Int]
    var loop_count: Int
    var orientation: Int?
  }

  static func manifest(_ folder: String) throws -> [String: Entry] {
    try JSONDecoder().decode([String: Entry].self, from: TestPaths.fixture("\(folder)/manifest.json"))
  }

  /// The reference frames of a fixture, straight RGBA, one packed array per frame.
  static func expectedFrames(_ folder: String, _ name: String, _ entry: Entry) throws -> [[UInt8]] {
    let bytes = [UInt8](try TestPaths.fixture("\(folder)/\(name).rgba"))
    let frameBytes = entry.width * entry.height * 4
    return (0..<entry.frames).map { i in Array(bytes[(i * frameBytes)..<((i + 1) * frameBytes)]) }
  }

  /// A buffer's bytes without row padding, in its own representation
  /// (straight for what decoders return); compare decoded pixels with the
  /// straight references through `straightRGBA()`.
  static func bytes(_ pixels: PixelBuffer) -> [UInt8] { pixels.packedBytes() }

  /// Largest per-channel difference between two byte arrays of one length.
  static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count, "sizes differ")
    var worst = 0
    for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
  }

  /// PSNR in dB over the RGB channels of two packed RGBA arrays.
  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count, "sizes differ")
    var sum = 0.0
    var n = 0.0
    for i in a.indices where i % 4 != 3 {
      let d = Double(a[i]) - Double(b[i])
      sum += d * d
      n += 1
    }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / n))
  }

  /// Expects decoding `data` with `coder` to fail with `code` and a reason.
  static func expectFailure(
    _ code: MagpieError.Code, decoding data: Data, with coder: any ImageCoder,
    options: DecodeOptions = DecodeOptions(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let image = try coder.decode(data, options: options)
      Issue.record(
        "decoded \(image.frames.count) \(image.pixelSize) frames instead of failing", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      #expect(!error.reason.isEmpty, sourceLocation: sourceLocation)
    }
  }

  /// Deterministic pseudo-random numbers (SplitMix64) for the fuzz loops.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Truncates and flips bytes of `data` many times; every decode and info
  /// call must return or throw one of `codes`, and decoded images must be
  /// consistent. Limits keep a flipped size from allocating much.
  static func fuzz(
    _ data: Data, coder: any ImageCoder, seed: UInt64, mutations: Int, codes: Set<MagpieError.Code>
  ) -> (decoded: Int, failed: Int) {
    let options = DecodeOptions(maxPixelCount: 1 << 20, maxTotalByteCount: 32 << 20)
    var random = SplitMix(state: seed)
    var decoded = 0
    var failed = 0
    func attempt(_ bytes: Data) {
      do {
        let image = try coder.decode(bytes, options: options)
        #expect(image.frames.allSatisfy { $0.pixels.size == image.pixelSize })
        #expect(image.pixelSize.pixelCount <= 1 << 20)
        decoded += 1
      } catch {
        #expect(codes.contains(error.code), "unexpected \(error)")
        failed += 1
      }
      do { _ = try coder.info(of: bytes) } catch { #expect(codes.contains(error.code), "unexpected \(error)") }
    }
    // Every truncation of small files, a spread of them for larger ones.
    let step = max(1, data.count / 400)
    for length in stride(from: 0, to: data.count, by: step) { attempt(data.prefix(length)) }
    for _ in 0..<mutations {
      var bytes = [UInt8](data)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        bytes[at] = random.next() % 3 == 0 ? UInt8.random(in: 0...255, using: &random) : bytes[at] ^ (1 << (at % 8))
      }
      attempt(Data(bytes))
    }
    return (decoded, failed)
  }

  @Test(arguments: ["gif", "webp"])
  func everyManifestEntryHasItsFileAndAReferenceOfTheDeclaredSize(folder: String) throws {
    let manifest = try Self.manifest(folder)
    #expect(manifest.count >= 9)
    for (name, entry) in manifest {
      #expect(!(try TestPaths.fixture("\(folder)/\(name)")).isEmpty)
      let reference = try TestPaths.fixture("\(folder)/\(name).rgba")
      #expect(reference.count == entry.width * entry.height * 4 * entry.frames, "\(name)")
      #expect(entry.delays_ms.count == entry.frames, "\(name)")
    }
  }
}
