#if canImport(MagpieServer)
  import Magpie
  import Testing

  @testable import MagpieServer

  /// Smart crop checked by construction: on a flat image with one detailed
  /// (noisy) patch, the window must contain the whole patch, wherever the
  /// patch is, at analysis size and above it (where the search runs on a
  /// box-reduced copy).
  @Suite struct SmartCropTests {
    /// A flat grey `size` image with a `patch`-sized square of
    /// deterministic noise at (`x`, `y`).
    static func image(_ size: PixelSize, patch: Int, at x: Int, _ y: Int) -> PixelBuffer {
      var state: UInt32 = 12345
      return ProcessingTestSupport.make(size.width, size.height) { px, py in
        guard px >= x, px < x + patch, py >= y, py < y + patch else { return SIMD4(128, 128, 128, 255) }
        state = state &* 1_664_525 &+ 1_013_904_223
        let v = UInt8(truncatingIfNeeded: state >> 24)
        return SIMD4(v, v &+ 85, v &+ 170, 255)
      }
    }

    @Test(arguments: [(10, 10), (350, 20), (20, 240), (340, 250), (180, 130), (0, 130)])
    func windowContainsTheDetailedPatch(x: Int, y: Int) {
      let size = PixelSize(width: 400, height: 300)
      let pixels = Self.image(size, patch: 40, at: x, y)
      let window = SmartCrop.origin(of: PixelSize(width: 100, height: 80), in: pixels)
      #expect(window.x <= x && window.x + 100 >= x + 40, "x \(window.x) for a patch at \(x)")
      #expect(window.y <= y && window.y + 80 >= y + 40, "y \(window.y) for a patch at \(y)")
    }

    /// 1500x1000 is searched at a third of its size.
    @Test(arguments: [(30, 900), (1400, 40), (700, 450)])
    func largeImagesAreSearchedReducedAndStillContainThePatch(x: Int, y: Int) {
      let size = PixelSize(width: 1500, height: 1000)
      #expect(SmartCrop.reductionFactor(for: size) == 3)
      let pixels = Self.image(size, patch: 60, at: x, y)
      let window = SmartCrop.origin(of: PixelSize(width: 200, height: 150), in: pixels)
      #expect(window.x <= x && window.x + 200 >= x + 60, "x \(window.x) for a patch at \(x)")
      #expect(window.y <= y && window.y + 150 >= y + 60, "y \(window.y) for a patch at \(y)")
    }

    /// Through the processor: fill 100x100 with `g:sm` of a 400x300 image
    /// (no resize needed: it is cropped as it is) keeps the patch.
    @Test func fillWithSmartGravityKeepsThePatch() throws {
      let pixels = Self.image(PixelSize(width: 400, height: 300), patch: 40, at: 330, 240)
      var options = TransformOptions()
      (options.resizingType, options.width, options.height, options.gravity) = (.fill, 100, 300, .smart)
      let result = try TransformProcessor(options: options).process(
        item: .image(Image(pixels: pixels)), options: ImageProcessingOptions()
      ).pixels
      #expect(result.size == PixelSize(width: 100, height: 300))
      // The patch's columns 330-369 must lie in the window: they are the
      // only non-grey ones.
      let noisy = (0..<100).filter { column in (0..<300).contains { result[column, $0] != SIMD4(128, 128, 128, 255) } }
      #expect(noisy.count == 40)
    }
  }
#endif
