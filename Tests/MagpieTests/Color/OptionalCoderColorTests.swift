import Foundation
import Testing

@testable import Magpie

#if canImport(MagpieHEIF)
  import MagpieHEIF
#endif
#if canImport(MagpieJXL)
  import MagpieJXL
#endif

/// The optional coders only attach the profile they read; a registry they
/// are registered in converts their images like any other (the contract
/// between the coders and the core).
@Suite struct OptionalCoderColorTests {
  typealias Support = ColorTestSupport

  /// Decodes `folder/name` with `coder` registered, converting and not.
  private func check(_ coder: any ImageCoder, _ folder: String, _ name: String) throws {
    let registry = CoderRegistry()
    registry.register(coder)
    let data = try TestPaths.fixture(folder + "/" + name)
    let converted = try registry.decode(data)
    let kept = try registry.decode(data, options: Support.preserving)
    #expect(converted.colorProfile == nil)
    #expect(kept.colorProfile?.iccData == (try TestPaths.fixture(folder + "/" + name + ".icc")))
    let reference = try Support.reference(name.replacingOccurrences(of: ".", with: "_"))
    let difference = Support.maxDifference(Support.rgb(converted.pixels), reference)
    #expect(difference <= Support.tolerance, "\(name): \(difference)")
    #expect(Support.maxDifference(Support.rgb(kept.pixels), Support.rgb(converted.pixels)) > 8)
  }

  #if canImport(MagpieHEIF)
    @Test func heicIsConverted() throws { try check(HEIFCoder(), "heif", "icc.heic") }
  #endif

  #if canImport(MagpieJXL)
    @Test func jpegXLIsConverted() throws { try check(JXLCoder(), "jxl", "icc.jxl") }
  #endif
}
