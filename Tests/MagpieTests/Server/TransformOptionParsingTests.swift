#if canImport(MagpieServer)
  import Magpie
  import MagpieServer
  import Testing

  /// Every option under its long and short names, its defaults, empty
  /// arguments and overrides.
  @Suite struct TransformOptionParsingTests {
    @Test func noOptionsLeaveTheDefaults() throws {
      let request = try ServerURLs.parse("/unsafe/plain/\(ServerURLs.source)")
      #expect(request.options == TransformOptions())
      #expect(request.options.stripsMetadata && request.options.keepsCopyright)
      #expect(request.options.gravity == .center && request.options.format == nil)
    }

    @Test(arguments: ["rs:fill:300:200:1:1", "resize:fill:300:200:t:true"])
    func resizeSetsTypeSizeEnlargeAndExtend(_ path: String) throws {
      let options = try ServerURLs.options(path)
      #expect(options.resizingType == .fill && options.width == 300 && options.height == 200)
      #expect(options.enlarges && options.extends)
    }

    @Test(arguments: ["s:120:80:1", "size:120:80:true"])
    func sizeSetsWidthHeightAndEnlarge(_ path: String) throws {
      let options = try ServerURLs.options(path)
      #expect(options.width == 120 && options.height == 80 && options.enlarges)
      #expect(options.resizingType == .fit)
    }

    @Test func singleOptionsUnderEveryName() throws {
      let cases: [(String, (TransformOptions) -> Bool)] = [
        ("rt:force", { $0.resizingType == .force }), ("resizing_type:fill-down", { $0.resizingType == .fillDown }),
        ("w:64", { $0.width == 64 }), ("width:64", { $0.width == 64 }),
        ("h:48", { $0.height == 48 }), ("height:48", { $0.height == 48 }),
        ("el:1", { $0.enlarges }), ("enlarge:T", { $0.enlarges }),
        ("ex:1", { $0.extends }), ("extend:True", { $0.extends }),
        ("q:80", { $0.quality == 80 }), ("quality:1", { $0.quality == 1 }), ("q:80/q:0", { $0.quality == nil }),
        ("dpr:2", { $0.devicePixelRatio == 2 }), ("dpr:1.5", { $0.devicePixelRatio == 1.5 }),
        ("dpr:25e-2", { $0.devicePixelRatio == 0.25 }),
        ("bl:2.5", { $0.blurSigma == 2.5 }), ("blur:100", { $0.blurSigma == 100 }),
        ("sh:0.5", { $0.sharpenSigma == 0.5 }), ("sharpen:.5", { $0.sharpenSigma == 0.5 }),
        ("rot:90", { $0.rotation == 90 }), ("rotate:270", { $0.rotation == 270 }), ("rot:180", { $0.rotation == 180 }),
        ("rot:90/rot:0", { $0.rotation == 0 }),
        ("sm:0", { !$0.stripsMetadata }), ("strip_metadata:false", { !$0.stripsMetadata }),
        ("sm:0/sm:1", { $0.stripsMetadata }),
        ("kcr:f", { !$0.keepsCopyright }), ("keep_copyright:FALSE", { !$0.keepsCopyright }),
        ("cc:keep", { $0.colorProfile == .keep }), ("color_profile:srgb-tagged", { $0.colorProfile == .tagged }),
        ("cc:keep/cc:srgb", { $0.colorProfile == .sRGB }),
      ]
      for (path, holds) in cases {
        #expect(holds(try ServerURLs.options(path)), "\(path)")
      }
    }

    @Test func formatsUnderEveryNameAndSpelling() throws {
      let cases: [(String, ImageFormat)] = [
        ("f:jpg", .jpeg), ("format:jpeg", .jpeg), ("ext:png", .png), ("f:gif", .gif), ("f:webp", .webp),
        ("format:avif", .avif),
      ]
      for (path, format) in cases {
        #expect(try ServerURLs.options(path).format == format, "\(path)")
      }
    }

    @Test func gravityTypesAndOffsets() throws {
      for anchor in GravityAnchor.allCases {
        #expect(try ServerURLs.options("g:\(anchor.rawValue)").gravity == .anchor(anchor))
      }
      #expect(try ServerURLs.options("gravity:soea:5:-3.5").gravity == .anchor(.southEast, xOffset: 5, yOffset: -3.5))
      #expect(try ServerURLs.options("g:sm").gravity == .smart)
      #expect(try ServerURLs.options("g:fp:0.25:0.75").gravity == .focusPoint(x: 0.25, y: 0.75))
      // A new anchor keeps the offsets (as imgproxy); another kind drops them.
      #expect(try ServerURLs.options("g:no:10:20/g:so").gravity == .anchor(.south, xOffset: 10, yOffset: 20))
      #expect(try ServerURLs.options("g:no:10:20/g:fp:0.5:1").gravity == .focusPoint(x: 0.5, y: 1))
      #expect(try ServerURLs.options("g:fp:0.1:0.2/g:ce").gravity == .center)
      // Empty type or coordinate keeps the current one.
      #expect(try ServerURLs.options("g:we:4:4/g::7").gravity == .anchor(.west, xOffset: 7, yOffset: 4))
      #expect(try ServerURLs.options("g:fp:0.1:0.2/g:fp::0.9").gravity == .focusPoint(x: 0.1, y: 0.9))
      #expect(try ServerURLs.options("g:fp").gravity == .focusPoint(x: 0.5, y: 0.5))
    }

    @Test func paddingReadsLikeCSS() throws {
      let cases: [(String, Padding)] = [
        ("pd:10", Padding(top: 10, right: 10, bottom: 10, left: 10)),
        ("pd:10:20", Padding(top: 10, right: 20, bottom: 10, left: 20)),
        ("padding:10:20:30", Padding(top: 10, right: 20, bottom: 30, left: 20)),
        ("pd:1:2:3:4", Padding(top: 1, right: 2, bottom: 3, left: 4)),
        ("pd:1:2:3:4/pd:::9", Padding(top: 1, right: 2, bottom: 9, left: 4)),
        ("pd:5/pd:0", Padding()),
      ]
      for (path, padding) in cases {
        #expect(try ServerURLs.options(path).padding == padding, "\(path)")
      }
    }

    @Test func backgroundAsRGBOrHexAndEmptyRemovesIt() throws {
      #expect(try ServerURLs.options("bg:255:128:0").background == RGBAColor(red: 255, green: 128, blue: 0))
      #expect(try ServerURLs.options("background:FF8000").background == RGBAColor(red: 255, green: 128, blue: 0))
      #expect(try ServerURLs.options("bg:ff8000/bg::255:").background == RGBAColor(red: 255, green: 255, blue: 0))
      #expect(try ServerURLs.options("bg:ff8000/bg:").background == nil)
    }

    @Test func emptyArgumentsKeepTheCurrentValue() throws {
      let options = try ServerURLs.options("rs:fill:300:200:1/rs:::50/w:/q:70/q:/f:png/f:/dpr:2/dpr:/el:")
      #expect(options.resizingType == .fill && options.width == 300 && options.height == 50 && options.enlarges)
      #expect(options.quality == 70 && options.format == .png && options.devicePixelRatio == 2)
    }

    @Test func laterOptionsOverrideEarlierOnes() throws {
      let options = try ServerURLs.options("w:100/rs:fill:200:0/rt:fit/width:300/bl:1/bl:2/f:png/format:webp")
      #expect(options.width == 300 && options.resizingType == .fit && options.blurSigma == 2)
      #expect(options.format == .webp)
    }
  }
#endif
