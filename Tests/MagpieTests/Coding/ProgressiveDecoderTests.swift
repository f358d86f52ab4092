import CMagpieTestSupport
import Foundation
import Testing

@testable import Magpie

/// Magpie's own progressive decoder (magpie_jpeg_progressive.c) against
/// libjpeg-turbo, the reference: both builds of its entropy decoder (BMI2
/// and portable) must make libjpeg's pixels byte for byte, for every scan
/// script, layout, restart interval and coefficient it takes, and must
/// leave everything else (damaged, cut-off or unusual files) to libjpeg.
@Suite struct ProgressiveDecoderTests {
  typealias S = ProgressiveDecoderSupport

  static let layouts: [S.Layout] = [
    S.Layout(),
    S.Layout(h: 1, v: 1),
    S.Layout(components: 1, h: 1, v: 1),
    S.Layout(script: MP_TEST_SCRIPT_DEEP_REFINEMENT),
    S.Layout(h: 1, v: 1, script: MP_TEST_SCRIPT_DEEP_REFINEMENT),
    S.Layout(components: 1, h: 1, v: 1, script: MP_TEST_SCRIPT_DEEP_REFINEMENT),
    S.Layout(script: MP_TEST_SCRIPT_BANDS),
    S.Layout(components: 1, h: 1, v: 1, script: MP_TEST_SCRIPT_BANDS),
    S.Layout(script: MP_TEST_SCRIPT_SPLIT_DC),
    S.Layout(h: 1, v: 1, script: MP_TEST_SCRIPT_SPLIT_DC),
    // Restart markers every MCU, and mid-row.
    S.Layout(restartInterval: 1),
    S.Layout(h: 1, v: 1, script: MP_TEST_SCRIPT_DEEP_REFINEMENT, restartInterval: 7),
    // Extreme quantisation.
    S.Layout(quality: 100),
    S.Layout(script: MP_TEST_SCRIPT_DEEP_REFINEMENT, quality: 3),
    // 4:2:2: chroma doubled across after the IDCT, as libjpeg does.
    S.Layout(h: 2, v: 1),
    S.Layout(h: 2, v: 1, script: MP_TEST_SCRIPT_DEEP_REFINEMENT, restartInterval: 5),
    // Chroma that libjpeg upsamples vertically (4:4:0), and arithmetic
    // coding: libjpeg's.
    S.Layout(h: 1, v: 2, takes: false),
    S.Layout(arithmetic: true, takes: false),
  ]

  /// A photo crop whose edges cut through blocks and MCUs, at 1/8, 1/4 and
  /// 1/2 (where 4:2:0 is not taken: its chroma needs the 8x8 IDCT, which is
  /// libjpeg's).
  @Test(arguments: layouts)
  func photosDecodeAsLibjpegDoes(layout: S.Layout) throws {
    for (width, height) in [(301, 203), (57, 45)] {
      let data = try S.photo("garden", width: width, height: height, layout: layout)
      for denominator in [2, 4, 8] {
        let takes = layout.takes && (denominator > 2 || layout.v == 1)
        try S.expectSameAsLibjpeg(
          data, denominator: denominator, takes: takes, "\(layout.testDescription) \(width)x\(height)")
      }
    }
  }

  /// Images down to one pixel, where the reduced size rounds up (and
  /// libjpeg doubles 4:2:2 chroma rows of one or two samples by repeating
  /// them, not with its filter).
  @Test(arguments: [(1, 1), (8, 8), (9, 17), (16, 16), (33, 1), (40, 3)])
  func tinyImagesDecodeAsLibjpegDoes(width: Int, height: Int) throws {
    let layouts = [S.Layout(), S.Layout(h: 1, v: 1, script: MP_TEST_SCRIPT_BANDS), S.Layout(h: 2, v: 1)]
    for layout in layouts {
      let data = try S.photo("door", width: width, height: height, layout: layout)
      for denominator in [4, 8] {
        try S.expectSameAsLibjpeg(data, denominator: denominator, takes: true, "\(width)x\(height)")
      }
    }
  }

  /// Coefficients no photo has: random, with extreme values and
  /// quantisers up to 32767, where libjpeg-turbo's SSE2 IDCTs wrap and
  /// saturate (and its C IDCTs would give other pixels).
  @Test(arguments: 0..<12)
  func madeUpCoefficientsDecodeAsLibjpegDoes(seed: Int) throws {
    let layouts = [S.Layout(), S.Layout(h: 1, v: 1), S.Layout(components: 1, h: 1, v: 1), S.Layout(h: 2, v: 1)]
    let layout = layouts[seed % 4]
    var spec = S.spec(width: 71 + seed * 13, height: 43 + seed * 7, layout: layout)
    spec.seed = UInt32(seed + 1)
    spec.wild = seed % 4 == 3 ? 0 : 1
    spec.quality = seed % 2 == 0 ? 0 : 90
    spec.max_quantizer = seed % 4 == 0 ? 32767 : 255
    spec.script = [MP_TEST_SCRIPT_STANDARD, MP_TEST_SCRIPT_DEEP_REFINEMENT, MP_TEST_SCRIPT_SPLIT_DC][seed % 3]
    let data = try S.encode(spec)
    for denominator in [2, 4, 8] {
      let takes = denominator > 2 || layout.v == 1
      try S.expectSameAsLibjpeg(data, denominator: denominator, takes: takes, "seed \(seed)")
    }
  }

  /// 4:2:2 chroma rows of every short length: libjpeg repeats each sample
  /// of rows of one or two and filters longer ones; random coefficients
  /// make neighbouring chroma samples differ, so either mistake shows.
  @Test(arguments: [2, 4, 8])
  func narrow422RowsAreDoubledAsLibjpegDoes(denominator: Int) throws {
    for width in stride(from: 1, through: 8 * denominator, by: max(1, denominator / 2)) {
      var spec = S.spec(width: width, height: 24, layout: S.Layout(h: 2, v: 1))
      spec.seed = UInt32(width)
      spec.quality = 90
      let data = try S.encode(spec)
      try S.expectSameAsLibjpeg(data, denominator: denominator, takes: true, "width \(width)")
    }
  }

  /// Full scale, and 1/2 with subsampled chroma, are libjpeg's.
  @Test func fullAndSubsampledHalfScaleAreLibjpegs() throws {
    let data = try S.photo("birds", width: 120, height: 80, layout: S.Layout())
    for denominator in [1, 2] {
      try S.expectSameAsLibjpeg(data, denominator: denominator, takes: false, "1/\(denominator)")
    }
    let full = try S.photo("birds", width: 120, height: 80, layout: S.Layout(h: 1, v: 1))
    try S.expectSameAsLibjpeg(full, denominator: 1, takes: false, "4:4:4 1/1")
  }

  /// Cut off anywhere, or with any byte changed, a file decodes (or fails)
  /// exactly as it does with libjpeg alone: the own decoder takes only data
  /// libjpeg decodes without complaint, and then makes its pixels.
  @Test func damagedFilesDecodeAsWithLibjpegAlone() throws {
    let data = try S.photo("statue", width: 160, height: 120, layout: S.Layout(restartInterval: 3))
    var own = JPEGCoder()
    own.usesOwnProgressiveDecoder = true
    var libjpeg = JPEGCoder()
    libjpeg.usesOwnProgressiveDecoder = false
    var options = DecodeOptions(targetSize: PixelSize(width: 40, height: 30))
    options.allowsPartialImage = true
    var variants = (1..<40).map { data.prefix(data.count * $0 / 40) }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<160 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var damaged = data
      let at = Int((state >> 33) % UInt64(data.count - 200)) + 200
      damaged[at] ^= UInt8(truncatingIfNeeded: state >> 8) | 1
      variants.append(damaged)
    }
    for (index, variant) in variants.enumerated() {
      let mine = Result { () throws(MagpieError) in try own.decode(variant, options: options) }
      let theirs = Result { () throws(MagpieError) in try libjpeg.decode(variant, options: options) }
      switch (mine, theirs) {
      case (.success(let a), .success(let b)):
        #expect(a.pixels == b.pixels && a.isPartial == b.isPartial, "variant \(index)")
      case (.failure(let a), .failure(let b)):
        #expect(a.code == b.code, "variant \(index): \(a) / \(b)")
      default:
        Issue.record("variant \(index): \(mine) against \(theirs)")
      }
    }
  }

  /// libjpeg reads a component's quantisation table number (SOF) and its
  /// Huffman table numbers (SOS) as whole bytes and nibbles and checks them
  /// only when it uses them; numbers past the four tables must not index
  /// past the own decoder's (found by the jpeg-progressive fuzz harness).
  @Test(arguments: [(0xC2, 10, UInt8(7)), (0xDA, 4, UInt8(0x55)), (0xDA, 4, UInt8(0x0F))])
  func tableNumbersPastTheTablesAreLibjpegs(marker: UInt8, offset: Int, value: UInt8) throws {
    var data = try S.photo("door", width: 64, height: 48, layout: S.Layout())
    let at = try #require((0..<(data.count - 1)).first { data[$0] == 0xFF && data[$0 + 1] == marker })
    // Counted from the segment's length: SOF's first Tq, SOS's first Td/Ta.
    data[at + 2 + offset] = value
    for denominator in [4, 8] {
      try S.expectSameAsLibjpegOutcome(data, denominator: denominator)
    }
  }

  /// The time limit stops the own decoder inside its scans.
  @Test func aPassedDeadlineStopsTheOwnDecoder() throws {
    let data = try S.photo("door", width: 400, height: 300, layout: S.Layout())
    let virtual = VirtualDecodeClock(step: .seconds(3600), stillReadings: 1)
    var options = DecodeOptions()
    options.decodeTimeLimit = .seconds(10)
    options.decodeClock = virtual.clock
    #expect {
      _ = try S.decode(data, denominator: 4, with: .own, options: options)
    } throws: { ($0 as? MagpieError)?.code == .limitExceeded }
  }

  /// Over the memory cap, the own decoder leaves the image to libjpeg,
  /// which refuses it as before.
  @Test func theMemoryCapHolds() throws {
    let data = try S.photo("door", width: 640, height: 480, layout: S.Layout())
    var options = DecodeOptions()
    options.maxTotalByteCount = 64 << 10
    for decoding in [JPEGDecompressor.ProgressiveDecoding.own, .libjpeg] {
      #expect {
        _ = try S.decode(data, denominator: 4, with: decoding, options: options)
      } throws: { ($0 as? MagpieError)?.code == .imageTooLarge }
    }
  }

  /// Decodes on several threads at once share the decoder's spare memory:
  /// each still gets its own pixels.
  @Test func concurrentDecodesKeepTheirOwnPixels() async throws {
    var files: [(Data, S.Decoded)] = []
    for (index, name) in ["birds", "door", "garden", "statue"].enumerated() {
      let layout = index % 2 == 0 ? S.Layout() : S.Layout(h: 1, v: 1, script: MP_TEST_SCRIPT_DEEP_REFINEMENT)
      let data = try S.photo(name, width: 200 + index * 40, height: 150 + index * 30, layout: layout)
      files.append((data, try S.decode(data, denominator: 4, with: .libjpeg)))
    }
    let expected = files
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for round in 0..<6 {
            let (data, reference) = expected[(task + round) % expected.count]
            let decoded = try S.decode(data, denominator: 4, with: .own)
            #expect(decoded.byOwnDecoder && decoded.rgba == reference.rgba)
          }
        }
      }
      try await group.waitForAll()
    }
  }
}
