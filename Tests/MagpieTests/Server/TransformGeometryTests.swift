#if canImport(MagpieServer)
  import Magpie
  import MagpieServer
  import Testing

  /// Result sizes as imgproxy computes them (processing/prepare.go
  /// `calcScale`, `calcSizes`, `padding`), worked out by hand per case:
  /// shrink = source / target per side, the larger for fit, the smaller for
  /// fill; without enlarging no shrink below 1 and the pixel ratio capped
  /// at the smaller shrink; sides round half away from zero, padding half
  /// to even.
  @Suite struct TransformGeometryTests {
    struct Case: CustomTestStringConvertible, Sendable {
      var type: ResizingType
      var width: Int
      var height: Int
      var enlarges = false
      var dpr = 1.0
      var rotation = 0
      var source = PixelSize(width: 1000, height: 500)
      var scaled: PixelSize
      var result: PixelSize
      var testDescription: String { "\(type.rawValue) \(width)x\(height) el \(enlarges) dpr \(dpr) of \(source)" }
    }

    static let cases: [Case] = [
      // 1000x500 into 300x300: shrinks 3.33 and 1.67.
      Case(
        type: .fit, width: 300, height: 300, scaled: .init(width: 300, height: 150),
        result: .init(width: 300, height: 150)),
      Case(
        type: .fill, width: 300, height: 300, scaled: .init(width: 600, height: 300),
        result: .init(width: 300, height: 300)),
      Case(
        type: .fillDown, width: 400, height: 400, scaled: .init(width: 800, height: 400),
        result: .init(width: 400, height: 400)),
      Case(
        type: .force, width: 300, height: 300, scaled: .init(width: 300, height: 300),
        result: .init(width: 300, height: 300)),
      // A 0 side follows the other's shrink; force keeps that side.
      Case(
        type: .fit, width: 300, height: 0, scaled: .init(width: 300, height: 150),
        result: .init(width: 300, height: 150)),
      Case(
        type: .fill, width: 0, height: 100, scaled: .init(width: 200, height: 100),
        result: .init(width: 200, height: 100)),
      Case(
        type: .force, width: 300, height: 0, scaled: .init(width: 300, height: 500),
        result: .init(width: 300, height: 500)),
      Case(
        type: .fit, width: 0, height: 0, scaled: .init(width: 1000, height: 500),
        result: .init(width: 1000, height: 500)),
      // Larger targets: kept without enlarge, fill-down crops to the aspect.
      Case(
        type: .fit, width: 2000, height: 2000, scaled: .init(width: 1000, height: 500),
        result: .init(width: 1000, height: 500)),
      Case(
        type: .fit, width: 2000, height: 2000, enlarges: true, scaled: .init(width: 2000, height: 1000),
        result: .init(width: 2000, height: 1000)),
      Case(
        type: .fill, width: 2000, height: 2000, scaled: .init(width: 1000, height: 500),
        result: .init(width: 1000, height: 500)),
      Case(
        type: .fill, width: 2000, height: 2000, enlarges: true, scaled: .init(width: 4000, height: 2000),
        result: .init(width: 2000, height: 2000)),
      Case(
        type: .fillDown, width: 2000, height: 2000, scaled: .init(width: 1000, height: 500),
        result: .init(width: 500, height: 500)),
      Case(
        type: .fillDown, width: 600, height: 1200, scaled: .init(width: 1000, height: 500),
        result: .init(width: 250, height: 500)),
      Case(
        type: .force, width: 2000, height: 300, scaled: .init(width: 1000, height: 150),
        result: .init(width: 1000, height: 150)),
      Case(
        type: .force, width: 2000, height: 300, enlarges: true, scaled: .init(width: 2000, height: 300),
        result: .init(width: 2000, height: 300)),
      // 333x777 into 100x100: shrink 7.77, width 42.86 rounds to 43.
      Case(
        type: .fit, width: 100, height: 100, source: .init(width: 333, height: 777),
        scaled: .init(width: 43, height: 100), result: .init(width: 43, height: 100)),
      Case(
        type: .fill, width: 100, height: 100, source: .init(width: 333, height: 777),
        scaled: .init(width: 100, height: 233), result: .init(width: 100, height: 100)),
      // The pixel ratio multiplies the target, capped at the source's size.
      Case(
        type: .fit, width: 150, height: 150, dpr: 2, scaled: .init(width: 300, height: 150),
        result: .init(width: 300, height: 150)),
      Case(
        type: .fill, width: 200, height: 200, dpr: 3, scaled: .init(width: 1000, height: 500),
        result: .init(width: 500, height: 500)),
      Case(
        type: .fit, width: 0, height: 0, dpr: 2, scaled: .init(width: 1000, height: 500),
        result: .init(width: 1000, height: 500)),
      Case(
        type: .fit, width: 0, height: 0, enlarges: true, dpr: 2, scaled: .init(width: 2000, height: 1000),
        result: .init(width: 2000, height: 1000)),
      // A quarter turn sizes the turned image: 500x1000 into 300x200.
      Case(
        type: .fill, width: 300, height: 200, rotation: 90, scaled: .init(width: 600, height: 300),
        result: .init(width: 300, height: 200)),
      Case(
        type: .fit, width: 300, height: 300, rotation: 270, scaled: .init(width: 300, height: 150),
        result: .init(width: 150, height: 300)),
    ]

    @Test(arguments: cases)
    func sizesAreImgproxys(_ c: Case) throws {
      var options = TransformOptions()
      options.resizingType = c.type
      options.width = c.width
      options.height = c.height
      options.enlarges = c.enlarges
      options.devicePixelRatio = c.dpr
      options.rotation = c.rotation
      let geometry = try TransformGeometry(options: options, sourceSize: c.source)
      #expect(geometry.scaledSize == c.scaled)
      #expect(geometry.resultSize == c.result)
    }

    /// Padding is CSS pixels times the ratio in effect, rounded half to
    /// even: 3 x 1.5 = 4.5 gives 4, 5 x 1.5 = 7.5 gives 8.
    @Test func paddingScalesByTheRatioInEffect() throws {
      var options = TransformOptions()
      options.width = 100
      options.height = 100
      options.devicePixelRatio = 1.5
      options.padding = Padding(top: 3, right: 5, bottom: 3, left: 5)
      let geometry = try TransformGeometry(options: options, sourceSize: PixelSize(width: 1000, height: 500))
      #expect(geometry.padding == Padding(top: 4, right: 8, bottom: 4, left: 8))
      #expect(geometry.resultSize == PixelSize(width: 166, height: 83))
      // Capped at 2.5 by a source that cannot give 3.
      options.resizingType = .fill
      options.width = 200
      options.height = 200
      options.devicePixelRatio = 3
      options.padding = Padding(top: 10, right: 10, bottom: 10, left: 10)
      let capped = try TransformGeometry(options: options, sourceSize: PixelSize(width: 1000, height: 500))
      #expect(capped.pixelRatio == 2.5)
      #expect(capped.resultSize == PixelSize(width: 550, height: 550))
    }

    @Test func optionsOutOfRangeAreRefused() {
      var rotation = TransformOptions()
      rotation.rotation = 45
      var ratio = TransformOptions()
      ratio.devicePixelRatio = 0
      var padding = TransformOptions()
      padding.padding.left = -1
      var point = TransformOptions()
      point.gravity = .focusPoint(x: 1.5, y: 0.5)
      for options in [rotation, ratio, padding, point] {
        #expect(throws: MagpieError.self) {
          try TransformGeometry(options: options, sourceSize: PixelSize(width: 10, height: 10))
        }
      }
    }
  }
#endif
