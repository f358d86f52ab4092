import Foundation
import Testing

@testable import Magpie

/// `DecodeOptions.decodeTimeLimit` in every core coder, on a virtual clock
/// (``VirtualDecodeClock``): a limit already passed fails at the coder's
/// first check, and an advancing clock stops an animation between frames.
@Suite struct DecodeTimeLimitTests {
  static let images: [(path: String, coder: any ImageCoder)] = [
    ("jpeg/photo96.jpg", JPEGCoder()), ("jpeg/photo96_progressive.jpg", JPEGCoder()), ("png/gray16.png", PNGCoder()),
    ("png/apng_ops.png", PNGCoder()), ("gif/disposal.gif", GIFCoder()), ("gif/still_local.gif", GIFCoder()),
    ("webp/lossy.webp", WebPCoder()), ("webp/anmf.webp", WebPCoder()),
  ]

  static func options(limit: Duration?, clock: DecodeClock = .continuous) -> DecodeOptions {
    var options = DecodeOptions()
    options.decodeTimeLimit = limit
    options.decodeClock = clock
    return options
  }

  @Test(arguments: 0..<images.count)
  func aLimitAlreadyPassedFailsWithTheLimitError(_ index: Int) throws {
    let (path, coder) = Self.images[index]
    let data = try TestPaths.fixture(path)
    #expect {
      _ = try coder.decode(data, options: Self.options(limit: .zero))
    } throws: { error in
      let error = error as? MagpieError
      return error?.code == .limitExceeded && error?.reason.contains("exceeds decodeTimeLimit 0.000 s") == true
    }
    // And the same file decodes without a limit.
    _ = try coder.decode(data, options: Self.options(limit: nil))
  }

  /// One second a clock reading, 3.5 s allowed: the GIF stops between
  /// frames, well before its seventh.
  @Test func anAnimationStopsBetweenFramesOnceTheClockPassesTheLimit() throws {
    let virtual = VirtualDecodeClock(step: .seconds(1))
    let options = Self.options(limit: .milliseconds(3500), clock: virtual.clock)
    let data = try TestPaths.fixture("gif/disposal.gif")
    do {
      _ = try GIFCoder().decode(data, options: options)
      Issue.record("decoded past the limit")
    } catch {
      #expect(error.code == .limitExceeded)
      #expect(error.reason.hasPrefix("decode time 4.000 s exceeds decodeTimeLimit 3.500 s (stopped at gif frame "))
    }
  }

  /// The clock stands still through the header checks and jumps an hour
  /// after: libjpeg's progress monitor stops the progressive file while it
  /// reads the scans or decodes rows.
  @Test func jpegStopsInsideLibjpeg() throws {
    for path in ["jpeg/photo96_progressive.jpg", "jpeg/photo96.jpg"] {
      let virtual = VirtualDecodeClock(step: .seconds(3600), stillReadings: 2)
      let data = try TestPaths.fixture(path)
      do {
        _ = try JPEGCoder().decode(data, options: Self.options(limit: .seconds(10), clock: virtual.clock))
        Issue.record("\(path) decoded past the limit")
      } catch {
        #expect(error.code == .limitExceeded, "\(path): \(error)")
        #expect(error.reason.hasSuffix("(stopped at the JPEG's scanline loop)"), "\(path): \(error.reason)")
      }
    }
  }

  /// Each frame source call gets its own deadline.
  @Test(arguments: [3, 4, 7])
  func aFrameSourceCallFailsWithTheLimitError(_ index: Int) throws {
    let (path, coder) = Self.images[index]
    let data = try TestPaths.fixture(path)
    let source = try #require(try coder.frameSource(for: data, options: Self.options(limit: .zero)))
    #expect {
      _ = try source.frame(at: 1)
    } throws: { ($0 as? MagpieError)?.code == .limitExceeded }
  }
}
