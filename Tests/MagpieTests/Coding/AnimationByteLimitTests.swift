import Foundation
import Testing

@testable import Magpie

/// The all-frames limit (`DecodeOptions.maxTotalByteCount`): its default,
/// and the one reason every animated format gives when it is crossed.
@Suite struct AnimationByteLimitTests {
  static let limitName = "-byte limit for all frames (DecodeOptions.maxTotalByteCount)"

  /// Decodes `data` with `coder`, expecting `.imageTooLarge`; returns the reason.
  private func refusal(
    _ data: Data, _ coder: any ImageCoder, _ options: DecodeOptions, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String? {
    do {
      let image = try coder.decode(data, options: options)
      Issue.record("decoded \(image.frames.count) frames", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == .imageTooLarge, "\(error)", sourceLocation: sourceLocation)
      return error.reason
    }
    return nil
  }

  /// One frame is a still, bounded by the pixel limit alone: a 90-megapixel
  /// canvas (360 MB) passes the all-frames check, two such frames do not.
  @Test func oneFrameIsBoundedByThePixelLimitAlone() throws {
    let canvas = PixelSize(width: 10_000, height: 9_000)
    try DecodeOptions().checkAnimationByteLimit(format: "gif", frameCount: 1, canvas: canvas)
    #expect(throws: MagpieError.self) {
      try DecodeOptions().checkAnimationByteLimit(format: "gif", frameCount: 2, canvas: canvas)
    }
  }

  @Test func theDefaultIs256MiB() {
    #expect(DecodeOptions().maxTotalByteCount == 256 << 20)
  }

  @Test func webpNamesTheLimitAndItsValue() throws {
    // anmf.webp: 6 frames of 24x16, 1536 bytes each.
    let data = try TestPaths.fixture("webp/anmf.webp")
    let reason = refusal(data, WebPCoder(), DecodeOptions(maxTotalByteCount: 5 * 1536))
    #expect(reason == "webp animation of 6 frames of 24x16 needs 9216 bytes, over the 7680\(Self.limitName)")
  }

  @Test func gifNamesTheLimitAndItsValue() throws {
    // disposal.gif: 7 frames of 16x16, 1 KiB each.
    let data = try TestPaths.fixture("gif/disposal.gif")
    let reason = refusal(data, GIFCoder(), DecodeOptions(maxTotalByteCount: 3 * 1024))
    // Counted from the records: all 7 frames, not just those that fit.
    #expect(reason == "gif animation of 7 frames of 16x16 needs 7168 bytes, over the 3072\(Self.limitName)")
  }
}
