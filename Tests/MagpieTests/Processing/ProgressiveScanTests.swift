import Foundation
import Testing

@testable import Magpie

/// Scaled decodes of progressive JPEGs read only the scans the scale needs;
/// what they make is checked against decoding every scan.
@Suite struct ProgressiveScanTests {
  typealias S = ProcessingTestSupport

  private let everyScan: CoderRegistry = {
    var coder = JPEGCoder()
    coder.decodesOnlyNeededScans = false
    coder.usesOwnProgressiveDecoder = false
    return CoderRegistry(builtIn: [coder, PNGCoder(), GIFCoder(), WebPCoder()])
  }()

  /// A progressive JPEG of a photo-like fixture enlarged 3x (2304x1536 or
  /// 1536x2304), so that a 1/8 decode is still a useful thumbnail source.
  private func progressivePhoto(_ name: String, quality: Int) throws -> Data {
    let photo = try S.photo(name)
    let big = Resampler.resample(photo, to: PixelSize(width: photo.width * 3, height: photo.height * 3))
    return try JPEGCoder().encode(
      Image(pixels: big), as: .jpeg, options: EncodeOptions(quality: quality, progressive: true))
  }

  private func scans(_ data: Data, denominator: Int, dcOnly: Bool) throws -> (kept: Int, dropped: Int) {
    try data.withUnsafeBytes { bytes in
      let decompressor = try JPEGDecompressor()
      _ = try decompressor.readHeader(bytes)
      _ = try decompressor.setOutput(scaleDenominator: denominator, maxMemory: 0)
      return try decompressor.skipUnneededScans(dcOnly: dcOnly)
    }
  }

  /// The point of it all: a 256-pixel thumbnail of a progressive JPEG, made
  /// from its DC scans only, is within 40 dB of the one made from every scan.
  @Test(arguments: [("door", 90), ("garden", 50), ("statue", 75), ("birds", 95)])
  func dcOnlyThumbnailsMatchTheFullDecode(name: String, quality: Int) throws {
    let data = try progressivePhoto(name, quality: quality)
    let options = ImageProcessingOptions(firstFrameOnly: true)
    let thumbnail = ImageProcessors.Downsampling(size: PixelSize(width: 144, height: 144))
    // 2304x1536 at 1/8 is 288x192, twice the 144x96 needed: the DC-only path.
    #expect(try scans(data, denominator: 8, dcOnly: true).dropped > 0)
    let fast = try thumbnail.process(item: .data(data), options: options)
    var full = options
    full.registry = everyScan
    let reference = try thumbnail.process(item: .data(data), options: full)
    #expect(fast.pixelSize == reference.pixelSize)
    let psnr = S.psnr(fast.pixels, reference.pixels)
    #expect(psnr >= 40, "\(name) q\(quality): \(psnr) dB")
  }

  /// When the 1/8 image is needed nearly as it is, chroma keeps its detail
  /// and the pixels are exactly those of the full decode.
  @Test func closeTargetsDecodeTheNeededScansExactly() throws {
    let data = try progressivePhoto("birds", quality: 85)
    let options = DecodeOptions(targetSize: PixelSize(width: 250, height: 250))
    let fast = try CoderRegistry.shared.decode(data, options: options)
    let reference = try everyScan.decode(data, options: options)
    #expect(fast.pixelSize == PixelSize(width: 288, height: 192))
    #expect(fast.pixels == reference.pixels)
    // libjpeg's standard script has ten scans: DC first and refinement and
    // the four chroma scans are kept, the four luma AC scans dropped.
    #expect(try scans(data, denominator: 8, dcOnly: false) == (kept: 6, dropped: 4))
    #expect(try scans(data, denominator: 8, dcOnly: true) == (kept: 2, dropped: 8))
  }

  /// Two unusual scan scripts: DC per component with luma AC in two bands
  /// under successive approximation (progressive-script.jpg), and every band
  /// in one pass, so that no refinement scan ties the bands together
  /// (progressive-bands.jpg: libjpeg-turbo's reduced IDCTs read more than
  /// the first s x s coefficients of a block, the 2x2 one rows and columns
  /// 0, 1, 3, 5 and 7, the 4x4 one all but 4). At every scale, dropping what
  /// is not needed changes no pixel.
  @Test(arguments: ["progressive-script.jpg", "progressive-bands.jpg"], [2, 4, 8])
  func customScanScriptsDecodeExactlyAtEveryScale(fixture: String, denominator: Int) throws {
    let data = try TestPaths.fixture("processing/\(fixture)")
    let target = PixelSize(width: 320 / denominator, height: 240 / denominator)
    let options = DecodeOptions(targetSize: target)
    let fast = try CoderRegistry.shared.decode(data, options: options)
    let reference = try everyScan.decode(data, options: options)
    #expect(fast.pixelSize == target)
    #expect(fast.pixels == reference.pixels)
    #expect(!fast.isPartial)
  }

  @Test func theScriptsScansAreChosenByWhatTheScaleReads() throws {
    let data = try TestPaths.fixture("processing/progressive-script.jpg")
    // 1/8: luma needs DC only, so its four AC scans go; chroma (2x2 IDCT)
    // keeps its AC scans.
    #expect(try scans(data, denominator: 8, dcOnly: false) == (kept: 5, dropped: 4))
    #expect(try scans(data, denominator: 8, dcOnly: true) == (kept: 3, dropped: 6))
    // 1/4: the 2x2 luma IDCT reads coefficients in both bands, and the
    // refinement scans of 1-63 depend on both anyway.
    #expect(try scans(data, denominator: 4, dcOnly: false) == (kept: 0, dropped: 0))
  }

  @Test func bandsTheReducedIDCTsReadAreKept() throws {
    let data = try TestPaths.fixture("processing/progressive-bands.jpg")
    // 1/8: luma (1x1) reads DC only, so its two AC bands go; chroma (2x2)
    // reads coefficients in both of its bands.
    #expect(try scans(data, denominator: 8, dcOnly: false) == (kept: 7, dropped: 2))
    #expect(try scans(data, denominator: 8, dcOnly: true) == (kept: 3, dropped: 6))
    // 1/4: the 2x2 luma IDCT reads row 0, column 3 (zigzag 6, in 6-63);
    // 1/2: the 4x4 one reads row 0, column 2 (zigzag 5). Nothing goes.
    #expect(try scans(data, denominator: 4, dcOnly: false) == (kept: 0, dropped: 0))
    #expect(try scans(data, denominator: 2, dcOnly: false) == (kept: 0, dropped: 0))
  }

  @Test func baselineAndFullScaleDecodesAreLeftAlone() throws {
    let photo = try S.photo("door")
    let baseline = try JPEGCoder().encode(Image(pixels: photo), as: .jpeg, options: EncodeOptions(quality: 80))
    #expect(try scans(baseline, denominator: 8, dcOnly: true) == (kept: 0, dropped: 0))
    let progressive = try JPEGCoder().encode(
      Image(pixels: photo), as: .jpeg, options: EncodeOptions(quality: 80, progressive: true))
    #expect(try scans(progressive, denominator: 1, dcOnly: false) == (kept: 0, dropped: 0))
  }

  /// A progressive file cut off inside the scans that are kept is still
  /// reported partial; one cut off anywhere decodes without a crash.
  @Test func truncatedProgressiveFilesStayPartialAndSafe() throws {
    let data = try progressivePhoto("garden", quality: 80)
    let options = DecodeOptions(targetSize: PixelSize(width: 100, height: 100))
    for fraction in [0.05, 0.2, 0.5, 0.9, 0.999] {
      let cut = data.prefix(Int(Double(data.count) * fraction))
      let image = try CoderRegistry.shared.decode(cut, options: options)
      #expect(image.isPartial, "cut at \(fraction)")
    }
    var strict = options
    strict.allowsPartialImage = false
    #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(data.prefix(data.count / 2), options: strict) }
  }
}
