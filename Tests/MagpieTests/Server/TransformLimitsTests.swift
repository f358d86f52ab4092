#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  /// Animations stay animated, bytes decode at a reduced size, and results
  /// over the limits are refused before anything is decoded or allocated.
  @Suite struct TransformLimitsTests {
    typealias S = ProcessingTestSupport

    static func processor(_ set: (inout TransformOptions) -> Void, limit: Int = 50_000_000) -> TransformProcessor {
      var options = TransformOptions()
      set(&options)
      return TransformProcessor(options: options, maximumResultPixels: limit)
    }

    /// The 32x24 five-frame GIF: every frame filled to 16x16, turned and
    /// padded, against Pillow doing the same to that frame; durations and
    /// loop count kept.
    @Test func animatedGIFStaysAnimatedWithEveryFrameTransformed() throws {
      let data = try TestPaths.fixture("processing/anim.gif")
      let source = try CoderRegistry.shared.decode(data)
      let processor = Self.processor {
        ($0.resizingType, $0.width, $0.height, $0.rotation) = (.fill, 12, 16, 90)
        $0.padding = Padding(top: 1, right: 2, bottom: 3, left: 4)
      }
      let result = try processor.process(item: .data(data), options: ImageProcessingOptions())
      #expect(result.frames.count == 5)
      #expect(result.loopCount == source.loopCount)
      #expect(result.frames.map(\.duration) == source.frames.map(\.duration))
      // Turned 24x32 filled to 12x16: scaled to 16x12 before the turn.
      for (index, frame) in result.frames.enumerated() {
        #expect(frame.pixels.size == PixelSize(width: 18, height: 20))
        let reference = try PillowReference.image(
          source.frames[index].pixels,
          "out = Image.new('RGBA', (18, 20), (0, 0, 0, 0)); "
            + "out.paste(src.resize((16, 12), Image.LANCZOS, reducing_gap=2.0).transpose(Image.ROTATE_270), (4, 1))")
        #expect(S.psnr(frame.pixels, reference, alpha: true) >= 45, "frame \(index)")
      }
    }

    /// A 2400x1600 JPEG fitted to 300x200 decodes at 1/8 scale: it
    /// succeeds under a 100,000-pixel decode limit that the full-size
    /// decode fails.
    @Test func jpegBytesAreDecodedAtAReducedSize() throws {
      let photo = try S.photo("garden")
      let large = Resampler.resample(photo, to: PixelSize(width: 2400, height: 1600))
      let data = try CoderRegistry.shared.encode(Image(pixels: large), as: .jpeg)
      var tight = ImageProcessingOptions()
      tight.decodeOptions.maxPixelCount = 100_000
      #expect(throws: MagpieError.self) { try CoderRegistry.shared.decode(data, options: tight.decodeOptions) }
      let processor = Self.processor { ($0.width, $0.height) = (300, 300) }
      #expect(processor.prefersEncodedData)
      #expect(
        try processor.decodeTargetSize(for: PixelSize(width: 2400, height: 1600)) == .init(width: 300, height: 200))
      let result = try processor.process(item: .data(data), options: tight)
      #expect(result.pixelSize == PixelSize(width: 300, height: 200))
    }

    /// The limit is checked from the headers: a PNG cut off after its
    /// header is refused as too large, not as truncated.
    @Test func resultsOverTheLimitAreRefusedBeforeDecoding() throws {
      let png = try CoderRegistry.shared.encode(Image(pixels: S.solid(1000, 500, SIMD4(9, 9, 9, 255))), as: .png)
      let header = png.prefix(64)
      let processor = Self.processor({ ($0.width, $0.height) = (200, 200) }, limit: 10_000)
      let error = #expect(throws: MagpieError.self) { try processor.process(item: .data(header), options: .init()) }
      #expect(error?.code == .imageTooLarge)
      #expect(error?.reason.contains("maximumResultPixels") == true)
      #expect(error?.reason.contains("result would be 200x100") == true)
      // Padding counts; so does the resized image a fill is cropped from.
      let padded = Self.processor({ $0.padding = Padding(top: 0, right: 0, bottom: 100_000, left: 0) })
      #expect(throws: MagpieError.self) { try padded.process(item: .data(png), options: .init()) }
      let stretched = Self.processor({
        ($0.resizingType, $0.width, $0.height, $0.enlarges) = (.fill, 8000, 10, true)
      })
      let intermediate = #expect(throws: MagpieError.self) {
        try stretched.geometry(for: .init(width: 10, height: 1000))
      }
      #expect(intermediate?.reason.contains("resized image would be 8000x800000") == true)
      // Under the limit the same bytes transform.
      let fits = Self.processor({ ($0.width, $0.height) = (200, 200) }, limit: 20_000)
      #expect(try fits.process(item: .data(png), options: .init()).pixelSize == PixelSize(width: 200, height: 100))
    }

    /// An image with more frames than the decode limit allows is refused.
    @Test func framesOverTheDecodeLimitAreRefused() throws {
      let frames = (0..<4).map { ImageFrame(pixels: S.solid(8, 8, SIMD4(UInt8($0 * 60), 0, 0, 255))) }
      var options = ImageProcessingOptions()
      options.decodeOptions.maxFrameCount = 3
      let error = #expect(throws: MagpieError.self) {
        try Self.processor { $0.width = 4 }.process(item: .image(Image(frames: frames)), options: options)
      }
      #expect(error?.code == .limitExceeded)
    }
  }
#endif
