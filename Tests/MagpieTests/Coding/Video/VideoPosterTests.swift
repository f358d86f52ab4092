#if canImport(MagpieVideo)
  import Foundation
  import Magpie
  import MagpieVideo
  import Testing

  /// Poster frames of MP4, WebM and MOV clips (FFmpeg's testsrc2 pattern,
  /// Scripts/fixtures/make_video_fixtures.py) are the frames `ffmpeg
  /// -frames:v 1` makes: the same libavcodec and swscale, so within 1 per
  /// channel (measured: equal).
  @Suite struct VideoPosterTests {
    static let clips = ["clip.mp4", "clip.webm", "clip.mov"]

    private func url(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent("video/\(name)") }

    private func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> Image {
      try VideoCoder().decode(Data(contentsOf: url(name)), options: options)
    }

    @Test(arguments: clips) func theFirstFrameIsFFmpegs(name: String) throws {
      let image = try decode(name)
      let reference = try VideoReference.frame(url(name))
      #expect(image.pixelSize == PixelSize(width: 160, height: 120))
      #expect(image.pixels.isOpaque)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= 1)
      #expect(image.format == ImageFormat.sniff(try Data(contentsOf: url(name))))
      #expect(image.format.isVideo)
    }

    @Test(arguments: clips) func aChosenTimeGivesTheFrameThere(name: String) throws {
      var options = DecodeOptions()
      options.posterTime = .milliseconds(1300)
      let image = try decode(name, options)
      let reference = try VideoReference.frame(url(name), at: 1.3)
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= 1)
      // testsrc2 moves: another time is another picture.
      #expect(ReferenceFixture.maxDifference(image.pixels, try decode(name).pixels) > 32)
      #expect(image.metadata?.video?.frameTime == .milliseconds(1300))
    }

    @Test func aTargetSizeScalesTheFrameWhileConverting() throws {
      var options = DecodeOptions()
      options.targetSize = PixelSize(width: 80, height: 60)
      let image = try decode("clip.mp4", options)
      #expect(image.pixelSize == PixelSize(width: 80, height: 60))
      let reference = try VideoReference.frame(url("clip.mp4"), size: PixelSize(width: 80, height: 60))
      #expect(ReferenceFixture.maxDifference(image.pixels, reference) <= 2)
    }

    @Test func aPhoneVideosRotationIsApplied() throws {
      let image = try decode("rotated.mp4")
      #expect(image.pixelSize == PixelSize(width: 120, height: 160))
      #expect(image.orientation != .up)
      #expect(ReferenceFixture.maxDifference(image.pixels, try VideoReference.frame(url("rotated.mp4"))) <= 1)
    }

    @Test(arguments: [("clip.mp4", "h264"), ("clip.webm", "vp9"), ("clip.mov", "mpeg4")])
    func durationFrameRateAndCodecAreInTheMetadata(name: String, codec: String) throws {
      let video = try #require(try decode(name).metadata?.video)
      #expect(video.codec == codec)
      #expect(video.frameRate.map { abs($0 - 10) < 0.01 } == true)
      let duration = try #require(video.duration)
      #expect(duration >= .milliseconds(1900) && duration <= .milliseconds(2100), "\(duration)")
      let info = try VideoCoder().info(of: Data(contentsOf: url(name)))
      #expect(info.video?.codec == codec)
      #expect(info.size == PixelSize(width: 160, height: 120))
    }

    @Test func aRequestsPosterTimeIsItsOwnCachedImage() async throws {
      let registry = CoderRegistry()
      registry.register(VideoCoder())
      let cache = ImageCache(tiers: [])
      let manager = ImageManager(
        configuration: .init(
          cache: cache, downloader: ImageDownloader(configuration: .init(dataLoader: CurlDataLoader(), rateLimit: nil)),
          registry: registry))
      let provider = FileDataProvider(fileURL: url("clip.mp4"))
      var later = ImageRequest(provider: provider)
      later.posterTime = .seconds(1)
      let first = try await manager.image(for: ImageRequest(provider: provider))
      let second = try await manager.image(for: later)
      #expect(ReferenceFixture.maxDifference(first.image.pixels, second.image.pixels) > 32)
      #expect(
        later.cacheKey(defaultFilter: .absoluteString)
          != ImageRequest(provider: provider).cacheKey(defaultFilter: .absoluteString))
      #expect(try await manager.image(for: later).cacheType == .memory)
    }
  }
#endif
