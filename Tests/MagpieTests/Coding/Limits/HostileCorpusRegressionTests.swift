import Foundation
import Testing

@testable import Magpie

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif

/// Files the hostile corpus (Scripts/hostile) found failing, kept in
/// Fixtures/hostile/ (each made from one of our own fixtures), with what
/// they must do now.
@Suite struct HostileCorpusRegressionTests {
  #if canImport(MagpieAVIF)
    /// avif/d10_422.avif (64x48) with its ispe boxes rewritten to 4000x4000:
    /// libavif upscaled the decoded frame to the declared size, so 1153
    /// bytes decoded to a 16-megapixel image (285 MB peak, 9 s on a loaded
    /// machine; 5642x5671 went to 520 MB). The container now has to agree
    /// with the AV1 sequence header.
    @Test func anAVIFDeclaringMoreThanItsAV1DataCodesIsCorrupt() throws {
      let data = try TestPaths.fixture("hostile/avif_ispe_4000x4000_10bit.avif")
      do {
        let image = try AVIFCoder().decode(data, options: DecodeOptions())
        Issue.record("decoded to \(image.pixelSize)")
      } catch {
        #expect(error.code == .corruptData)
        #expect(
          error.reason == "the avif container declares 4000x4000 but its AV1 data codes frames of at most 64x48")
      }
      #expect(throws: MagpieError.self) { _ = try CoderRegistry.shared.decode(data) }
      // info reads the container alone and still says what it declares.
      #expect(try AVIFCoder().info(of: data).size == PixelSize(width: 4000, height: 4000))
    }
  #endif
}
