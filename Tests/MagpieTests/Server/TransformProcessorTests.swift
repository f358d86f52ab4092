#if canImport(MagpieServer)
  import Foundation
  import Magpie
  import MagpieServer
  import Testing

  /// Each option's effect on pixels against Pillow doing the same steps at
  /// the positions imgproxy's rules give (worked out by hand in each test).
  /// Resampling is Lanczos-3 on both sides (Pillow with `reducing_gap=2`,
  /// as Magpie's resampler); tolerances are those of the resampling tests
  /// (45 dB, where they ask 35-45 dB of plain resizes; these measure 54-81
  /// dB and 1 level at worst, 4 for force, and a window one pixel off drops
  /// below 30 dB), and a level for compositing.
  @Suite struct TransformProcessorTests {
    typealias S = ProcessingTestSupport

    static func transform(_ pixels: PixelBuffer, _ set: (inout TransformOptions) -> Void) throws -> PixelBuffer {
      var options = TransformOptions()
      set(&options)
      let image = try TransformProcessor(options: options).process(
        item: .image(Image(pixels: pixels)), options: ImageProcessingOptions())
      return image.pixels
    }

    private func expectClose(_ result: PixelBuffer, _ reference: PixelBuffer, _ minimum: Double = 45) {
      #expect(result.size == reference.size)
      guard result.size == reference.size else { return }
      let psnr = S.psnr(result, reference, alpha: true)
      #expect(psnr >= minimum, "\(psnr) dB, \(S.maxDifference(result, reference)) levels at worst")
    }

    /// garden is 768x512: fill 200x200 shrinks by 2.56 to 300x200 and
    /// crops a 200x200 window at x = 50 (centre: (300 - 200 + 1) / 2 = 50.5,
    /// half to even), 0 (west), 100 (east), 30 (west + 30), 70 (east + 30,
    /// toward the centre), 80 (centre + 0.1 of 300), 0 (centre - 80,
    /// moved back inside), 80 (focus point 0.6: 180 - 100).
    @Test(arguments: [
      (Gravity.center, 50), (.anchor(.west), 0), (.anchor(.east), 100), (.anchor(.northWest, xOffset: 30), 30),
      (.anchor(.southEast, xOffset: 30), 70), (.anchor(.center, xOffset: 0.1), 80),
      (.anchor(.center, xOffset: -80), 0), (.focusPoint(x: 0.6, y: 0.5), 80),
    ])
    func fillCropsWhereGravitySays(gravity: Gravity, left: Int) throws {
      let photo = try S.photo("garden")
      let result = try Self.transform(photo) {
        $0.resizingType = .fill
        ($0.width, $0.height, $0.gravity) = (200, 200, gravity)
      }
      let reference = try PillowReference.image(
        photo, "out = src.resize((300, 200), Image.LANCZOS, reducing_gap=2.0).crop((\(left), 0, \(left + 200), 200))")
      expectClose(result, reference)
    }

    /// statue is 512x768: fill 200x200 scales to 200x300 and crops at
    /// y = 50 (centre: 50.5 to even), 0 (north), 100 (south), 85 (south +
    /// 15 up), 20 (north + 20), 20 (focus point 0.4: 120 - 100).
    @Test(arguments: [
      (Gravity.center, 50), (.anchor(.north), 0), (.anchor(.south), 100), (.anchor(.south, yOffset: 15), 85),
      (.anchor(.northEast, yOffset: 20), 20), (.focusPoint(x: 0.5, y: 0.4), 20),
    ])
    func fillCropsVerticallyWhereGravitySays(gravity: Gravity, top: Int) throws {
      let photo = try S.photo("statue")
      let result = try Self.transform(photo) {
        $0.resizingType = .fill
        ($0.width, $0.height, $0.gravity) = (200, 200, gravity)
      }
      let reference = try PillowReference.image(
        photo, "out = src.resize((200, 300), Image.LANCZOS, reducing_gap=2.0).crop((0, \(top), 200, \(top + 200)))")
      expectClose(result, reference)
    }

    /// fit into 300x300 (300x200), force to 300x100, fill-down to 100x300
    /// (shrink 1.71 to 450x300, centre crop at 175.5 -> 176), and fill
    /// 100x100 at dpr 2 (the fill of 200x200).
    @Test(arguments: [
      (ResizingType.fit, 300, 300, 1.0, "out = src.resize((300, 200), Image.LANCZOS, reducing_gap=2.0)"),
      (.force, 300, 100, 1, "out = src.resize((300, 100), Image.LANCZOS, reducing_gap=2.0)"),
      (
        .fillDown, 100, 300, 1,
        "out = src.resize((450, 300), Image.LANCZOS, reducing_gap=2.0).crop((176, 0, 276, 300))"
      ),
      (.fill, 100, 100, 2, "out = src.resize((300, 200), Image.LANCZOS, reducing_gap=2.0).crop((50, 0, 250, 200))"),
    ])
    func resizingTypesScaleLikePillow(type: ResizingType, width: Int, height: Int, dpr: Double, program: String)
      throws
    {
      let photo = try S.photo("garden")
      let result = try Self.transform(photo) {
        ($0.resizingType, $0.width, $0.height, $0.devicePixelRatio) = (type, width, height, dpr)
      }
      expectClose(result, try PillowReference.image(photo, program))
    }

    /// A quarter turn happens before the crop: fill 200x150 turned 90
    /// degrees sizes the 512x768 turned image (300x200 before the turn,
    /// 200x300 after) and crops at y = 75.5 -> 76. Pillow's ROTATE_270 is
    /// a clockwise quarter turn.
    @Test(arguments: [(90, "ROTATE_270", 76), (270, "ROTATE_90", 76)])
    func rotationTurnsClockwiseBeforeTheCrop(degrees: Int, pillow: String, top: Int) throws {
      let photo = try S.photo("garden")
      let result = try Self.transform(photo) {
        ($0.resizingType, $0.width, $0.height, $0.rotation) = (.fill, 200, 150, degrees)
      }
      let reference = try PillowReference.image(
        photo,
        "out = src.resize((300, 200), Image.LANCZOS, reducing_gap=2.0).transpose(Image.\(pillow))"
          + ".crop((0, \(top), 200, \(top + 150)))")
      expectClose(result, reference)
    }

    @Test func halfTurnWithoutResizeIsExact() throws {
      let photo = try S.photo("door")
      let result = try Self.transform(photo) { $0.rotation = 180 }
      #expect(S.maxDifference(result, try PillowReference.image(photo, "out = src.transpose(Image.ROTATE_180)")) == 0)
    }

    /// Blur is Pillow's GaussianBlur with radius = sigma (the blur tests'
    /// three-box scheme), after the resize.
    @Test(arguments: [1.5, 5])
    func blurIsPillowsGaussianBlurAfterTheResize(sigma: Double) throws {
      let photo = try S.photo("birds")
      let result = try Self.transform(photo) { ($0.width, $0.height, $0.blurSigma) = (384, 256, sigma) }
      let reference = try PillowReference.image(
        photo,
        "out = src.resize((384, 256), Image.LANCZOS, reducing_gap=2.0).filter(ImageFilter.GaussianBlur(\(sigma)))")
      // 72-82 dB measured; a sigma 10 % off stays above 45 dB.
      expectClose(result, reference, 60)
    }

    /// Sharpen is Pillow's UnsharpMask(sigma, 100, 0), no resize, so only
    /// the blur inside it differs: within 2 levels (110 % instead of
    /// 100 % is further off).
    @Test func sharpenIsPillowsUnsharpMask() throws {
      let photo = try S.photo("birds").cropped(x: 200, y: 120, width: 256, height: 200)
      let result = try Self.transform(photo) { $0.sharpenSigma = 1.2 }
      let reference = try PillowReference.image(
        photo, "out = src.filter(ImageFilter.UnsharpMask(radius=1.2, percent=100, threshold=0))")
      expectClose(result, reference, 60)
      #expect(S.maxDifference(result, reference) <= 2)
    }

    /// Transparent pixels are flattened onto the background as Pillow's
    /// alpha_composite puts them over it: within a level (rounding).
    @Test func backgroundFlattensTransparency() throws {
      let photo = try ReferenceTool.photoWithAlpha("garden.png").pixels
      let result = try Self.transform(photo) { $0.background = RGBAColor(red: 51, green: 102, blue: 204) }
      let reference = try PillowReference.image(
        photo, "out = Image.alpha_composite(Image.new('RGBA', src.size, (51, 102, 204, 255)), src)")
      #expect(result.isOpaque)
      #expect(S.maxDifference(result, reference) <= 1)
    }

    /// Padding adds rows and columns filled with the background, or
    /// transparent without one; the image is pasted at (left, top).
    @Test(arguments: [nil, RGBAColor(red: 250, green: 200, blue: 0)])
    func paddingSurroundsTheImage(background: RGBAColor?) throws {
      let photo = try ReferenceTool.photoWithAlpha("door.png").pixels.cropped(x: 300, y: 200, width: 120, height: 90)
      let result = try Self.transform(photo) {
        $0.padding = Padding(top: 10, right: 20, bottom: 30, left: 40)
        $0.background = background
      }
      let fill = background.map { "(\($0.red), \($0.green), \($0.blue), 255)" } ?? "(0, 0, 0, 0)"
      let reference = try PillowReference.image(
        photo,
        "out = Image.new('RGBA', (180, 130), \(fill)); out.alpha_composite(src, (40, 10))")
      #expect(result.size == PixelSize(width: 180, height: 130))
      #expect(S.maxDifference(result, reference) <= 1)
    }

    /// Extend grows the canvas to the target and centres the image on it
    /// (imgproxy: `(outer - inner + 1) / 2`, half to even), inside the
    /// padding: a 120x90 crop under fit 300x151 without enlarging sits at
    /// (90, 31) ((300 - 120 + 1) / 2 = 90.5, half to even; (151 - 90 + 1) / 2),
    /// padded 4 all round.
    /// A 0 target side keeps the image's.
    @Test(arguments: [nil, RGBAColor(red: 250, green: 200, blue: 0)])
    func extendCentresTheImageOnTheTargetCanvas(background: RGBAColor?) throws {
      let photo = try ReferenceTool.photoWithAlpha("door.png").pixels.cropped(x: 300, y: 200, width: 120, height: 90)
      let result = try Self.transform(photo) {
        ($0.width, $0.height, $0.extends) = (300, 151, true)
        $0.padding = Padding(top: 4, right: 4, bottom: 4, left: 4)
        $0.background = background
      }
      let fill = background.map { "(\($0.red), \($0.green), \($0.blue), 255)" } ?? "(0, 0, 0, 0)"
      let reference = try PillowReference.image(
        photo, "out = Image.new('RGBA', (308, 159), \(fill)); out.alpha_composite(src, (94, 35))")
      #expect(result.size == PixelSize(width: 308, height: 159))
      #expect(S.maxDifference(result, reference) <= 1)
      let wide = try Self.transform(photo) { ($0.width, $0.height, $0.extends) = (200, 0, true) }
      #expect(wide.size == PixelSize(width: 200, height: 90))
    }

    /// At dpr 2 the padding doubles and the target is the 2x one.
    @Test func devicePixelRatioScalesTargetAndPadding() throws {
      let photo = try S.photo("garden")
      let result = try Self.transform(photo) {
        ($0.width, $0.height, $0.devicePixelRatio) = (192, 128, 2)
        $0.padding = Padding(top: 5, right: 5, bottom: 5, left: 5)
        $0.background = .white
      }
      let reference = try PillowReference.image(
        photo,
        "out = Image.new('RGBA', (404, 276), (255, 255, 255, 255)); "
          + "out.paste(src.resize((384, 256), Image.LANCZOS, reducing_gap=2.0), (10, 10))")
      expectClose(result, reference)
    }

    /// Options that change nothing give back the very pixels.
    @Test func defaultOptionsLeaveThePixels() throws {
      let photo = try ReferenceTool.photoWithAlpha("birds.png").pixels
      #expect(try Self.transform(photo) { _ in } == photo)
    }

    @Test func identifierIsDeterministicAndTellsOptionsApart() {
      var a = TransformOptions()
      a.width = 300
      var b = a
      #expect(TransformProcessor(options: a).identifier == TransformProcessor(options: b).identifier)
      b.gravity = .anchor(.center, xOffset: 0, yOffset: 1)
      #expect(TransformProcessor(options: a).identifier != TransformProcessor(options: b).identifier)
      let variants: [(inout TransformOptions) -> Void] = [
        { $0.height = 300 }, { $0.resizingType = .fill }, { $0.enlarges = true }, { $0.gravity = .smart },
        { $0.devicePixelRatio = 2 }, { $0.blurSigma = 1 }, { $0.sharpenSigma = 1 }, { $0.padding.top = 1 },
        { $0.background = .black }, { $0.rotation = 90 }, { $0.quality = 80 }, { $0.format = .webp },
        { $0.stripsMetadata = false }, { $0.keepsCopyright = false }, { $0.colorProfile = .keep },
        { $0.extends = true },
      ]
      var seen = Set([TransformProcessor(options: a).identifier])
      for change in variants {
        var options = a
        change(&options)
        seen.insert(TransformProcessor(options: options).identifier)
      }
      #expect(seen.count == variants.count + 1)
      #expect(!TransformProcessor(options: a).identifier.contains("|"))
    }
  }
#endif
