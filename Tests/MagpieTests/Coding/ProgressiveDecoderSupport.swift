import CMagpieTestSupport
import Foundation
import Testing

@testable import Magpie

/// Test JPEGs for Magpie's own progressive decoder, and decodes of them
/// through ``JPEGDecompressor`` with each progressive decoder, so that the
/// own decoder's pixels can be held against libjpeg's.
enum ProgressiveDecoderSupport {
  /// What one decode made.
  struct Decoded: Equatable {
    var width: Int
    var height: Int
    var rgba: [UInt8]
    /// Whether Magpie's own progressive decoder made it.
    var byOwnDecoder: Bool
  }

  /// A test file's layout and coding.
  struct Layout: CustomTestStringConvertible, Sendable {
    var components: Int32 = 3
    var h = 2
    var v = 2
    var script = MP_TEST_SCRIPT_STANDARD
    var restartInterval: UInt32 = 0
    var arithmetic = false
    var quality: Int32 = 85
    /// Whether the own decoder takes it at 1/4 and 1/8.
    var takes = true

    var testDescription: String {
      "\(components == 1 ? "grey" : "\(h)x\(v)") script \(script.rawValue)"
        + (restartInterval > 0 ? " restart \(restartInterval)" : "") + (arithmetic ? " arithmetic" : "")
        + " q\(quality)"
    }
  }

  /// `spec` encoded by libjpeg; `pixels` (packed RGB or grey rows) when
  /// given, else random coefficients.
  static func encode(_ spec: mp_test_jpeg) throws -> Data {
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    guard
      let bytes = withUnsafePointer(to: spec, { spec in mp_test_jpeg_encode(spec, &size, &message) })
    else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw MagpieError(.encodingFailed, "test JPEG: \(reason)")
    }
    defer { free(bytes) }
    return Data(bytes: bytes, count: size)
  }

  /// A `width` x `height` crop of the photo fixture `name` in `layout`.
  static func photo(_ name: String, width: Int, height: Int, layout: Layout) throws -> Data {
    let full = try ProcessingTestSupport.photo(name)
    let photo = full.straightRGBA()
    let channels = Int(layout.components)
    var packed = [UInt8]()
    packed.reserveCapacity(width * height * channels)
    for y in 0..<height {
      for x in 0..<width {
        let at = (y % full.height * full.width + x % full.width) * 4
        if channels == 1 {
          packed.append(UInt8((Int(photo[at]) * 2 + Int(photo[at + 1]) * 5 + Int(photo[at + 2])) / 8))
        } else {
          packed += photo[at..<(at + 3)]
        }
      }
    }
    return try packed.withUnsafeBufferPointer { pixels in
      var spec = self.spec(width: width, height: height, layout: layout)
      spec.pixels = pixels.baseAddress
      return try encode(spec)
    }
  }

  /// The encoder settings for `layout` at `width` x `height`.
  static func spec(width: Int, height: Int, layout: Layout) -> mp_test_jpeg {
    var spec = mp_test_jpeg()
    spec.width = UInt32(width)
    spec.height = UInt32(height)
    spec.components = layout.components
    spec.h_samp = Int32(layout.h)
    spec.v_samp = Int32(layout.v)
    spec.script = layout.script
    spec.restart_interval = layout.restartInterval
    spec.arithmetic = layout.arithmetic ? 1 : 0
    spec.quality = layout.quality
    return spec
  }

  /// `data` decoded at 1/`denominator` with `decoding`, as JPEGCoder does
  /// (scans the scale does not read left out).
  static func decode(
    _ data: Data, denominator: Int, with decoding: JPEGDecompressor.ProgressiveDecoding,
    options: DecodeOptions = DecodeOptions()
  ) throws(MagpieError) -> Decoded {
    let result: Result<Decoded, MagpieError> = data.withUnsafeBytes { bytes in
      Result { () throws(MagpieError) in
        let decompressor = try JPEGDecompressor()
        decompressor.setDeadline(options.startDeadline())
        _ = try decompressor.readHeader(bytes)
        let size = try decompressor.setOutput(scaleDenominator: denominator, maxMemory: options.maxTotalByteCount)
        decompressor.progressiveDecoding = decoding
        _ = try decompressor.skipUnneededScans(dcOnly: false)
        try decompressor.start()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size.width * size.height * 4, alignment: 16)
        defer { buffer.deallocate() }
        try decompressor.readRows(into: buffer.baseAddress!, stride: size.width * 4, count: size.height)
        decompressor.finish()
        let rgba = [UInt8](buffer)
        return Decoded(
          width: size.width, height: size.height, rgba: rgba, byOwnDecoder: decompressor.usedOwnProgressiveDecoder)
      }
    }
    return try result.get()
  }

  /// Checks that both builds of the own decoder make libjpeg's pixels from
  /// `data` at 1/`denominator`, and that they ran when `takes` says so.
  static func expectSameAsLibjpeg(
    _ data: Data, denominator: Int, takes: Bool, _ note: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reference = try decode(data, denominator: denominator, with: .libjpeg)
    #expect(!reference.byOwnDecoder, sourceLocation: sourceLocation)
    for decoding in [JPEGDecompressor.ProgressiveDecoding.own, .ownPortable] {
      let own = try decode(data, denominator: denominator, with: decoding)
      #expect(own.byOwnDecoder == takes, "\(note) 1/\(denominator) \(decoding)", sourceLocation: sourceLocation)
      #expect(own.width == reference.width && own.height == reference.height, sourceLocation: sourceLocation)
      let differing = zip(own.rgba, reference.rgba).filter { $0 != $1 }.count
      #expect(
        differing == 0, "\(note) 1/\(denominator) \(decoding): \(differing) bytes differ",
        sourceLocation: sourceLocation)
    }
  }

  /// Checks that decoding `data` at 1/`denominator` with the own decoder
  /// allowed ends as it does with libjpeg alone: the same pixels, or the
  /// same kind of error.
  static func expectSameAsLibjpegOutcome(
    _ data: Data, denominator: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reference = Result { () throws(MagpieError) in try decode(data, denominator: denominator, with: .libjpeg) }
    for decoding in [JPEGDecompressor.ProgressiveDecoding.own, .ownPortable] {
      let own = Result { () throws(MagpieError) in try decode(data, denominator: denominator, with: decoding) }
      switch (own, reference) {
      case (.success(let a), .success(let b)):
        #expect(a.rgba == b.rgba, "1/\(denominator) \(decoding)", sourceLocation: sourceLocation)
      case (.failure(let a), .failure(let b)):
        #expect(a.code == b.code, "1/\(denominator) \(decoding): \(a) / \(b)", sourceLocation: sourceLocation)
      default:
        Issue.record("1/\(denominator) \(decoding): \(own) against \(reference)", sourceLocation: sourceLocation)
      }
    }
  }
}
