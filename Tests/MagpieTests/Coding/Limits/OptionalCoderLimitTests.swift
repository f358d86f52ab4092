import Foundation
import Testing

@testable import Magpie

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif
#if canImport(MagpieHEIF)
  import MagpieHEIF
#endif
#if canImport(MagpieJXL)
  import MagpieJXL
#endif

/// The frame-count and decode-time limits in the optional coders (AVIF,
/// HEIC, JPEG XL), where this build has them: the same errors as the core
/// coders give.
@Suite struct OptionalCoderLimitTests {
  /// The optional coders this build has, with an animated fixture (`nil`
  /// for HEIC, stills only) and a still one.
  static var coders: [(coder: any ImageCoder, animation: String?, still: String, format: String)] {
    var coders: [(any ImageCoder, String?, String, String)] = []
    #if canImport(MagpieAVIF)
      coders.append((AVIFCoder(), "avif/sequence.avifs", "avif/d8_420.avif", "avif sequence"))
    #endif
    #if canImport(MagpieHEIF)
      coders.append((HEIFCoder(), nil, "heif/8bit.heic", "heic"))
    #endif
    #if canImport(MagpieJXL)
      coders.append((JXLCoder(), "jxl/anim.jxl", "jxl/lossy.jxl", "jxl"))
    #endif
    return coders
  }

  @Test func framesOverTheLimitAreRefusedNamingCountAndLimit() throws {
    for (coder, animation, _, format) in Self.coders {
      guard let animation else { continue }
      try FrameCountLimitTests.expectOneFrameOverTheLimitRefused(animation, coder: coder, format: format)
      let data = try TestPaths.fixture(animation)
      let frames = try coder.info(of: data).frameCount
      var options = DecodeOptions()
      options.maxFrameCount = frames
      #expect(try coder.decode(data, options: options).frames.count == frames)
    }
  }

  @Test func aTimeLimitAlreadyPassedFailsWithTheLimitError() throws {
    var options = DecodeOptions()
    options.decodeTimeLimit = .zero
    for (coder, animation, still, _) in Self.coders {
      for path in [animation, still].compactMap({ $0 }) {
        let data = try TestPaths.fixture(path)
        do {
          _ = try coder.decode(data, options: options)
          Issue.record("\(path) decoded past the limit")
        } catch {
          #expect(error.code == .limitExceeded, "\(path): \(error)")
          #expect(error.reason.contains("exceeds decodeTimeLimit 0.000 s"), "\(path): \(error.reason)")
        }
        if animation == path, let source = try coder.frameSource(for: data, options: options) {
          #expect(throws: MagpieError.self, "\(path) frame source") { _ = try source.frame(at: 1) }
        }
      }
    }
  }
}
