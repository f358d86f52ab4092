#if canImport(MagpieVideo)
  import Foundation
  import Magpie
  import MagpieVideo
  import Testing

  /// Damaged videos fail with a typed error; a frame over the pixel limit
  /// is refused before the decoder opens.
  @Suite struct VideoHostileInputTests {
    private func data(_ name: String) throws -> Data {
      try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("video/\(name)"))
    }

    @Test func aTruncatedVideoIsCorrupt() throws {
      let error = #expect(throws: MagpieError.self) {
        try VideoCoder().decode(data("truncated.mp4"), options: DecodeOptions())
      }
      #expect(error?.code == .corruptData)
    }

    @Test func theFrameSizeIsCheckedAgainstThePixelLimit() throws {
      var options = DecodeOptions()
      options.maxPixelCount = 160 * 120 - 1
      let error = #expect(throws: MagpieError.self) { try VideoCoder().decode(data("clip.mp4"), options: options) }
      #expect(error?.code == .imageTooLarge)
    }

    @Test func theTimeLimitStopsTheDecode() throws {
      var options = DecodeOptions()
      options.decodeTimeLimit = .zero
      let error = #expect(throws: MagpieError.self) { try VideoCoder().decode(data("clip.webm"), options: options) }
      #expect(error?.code == .limitExceeded)
    }

    @Test func bytesOfAnotherContainerAreNotProbed() throws {
      // An MPEG-TS stream FFmpeg reads but Magpie's demuxer list leaves out:
      // the coder refuses it rather than probing every demuxer FFmpeg has.
      let ts = Data([0x47, 0x40, 0x00, 0x10] + [UInt8](repeating: 0xFF, count: 184))
      let error = #expect(throws: MagpieError.self) { try VideoCoder().decode(ts, options: DecodeOptions()) }
      #expect(error?.code == .corruptData)
    }
  }
#endif
