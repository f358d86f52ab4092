import Foundation
import Magpie
import Testing

#if canImport(MagpieAVIF)
  import MagpieAVIF
#endif

/// The Animation, Colour, and Formats and Coders articles' code, run.
@Suite("Article snippets run: animation, colour, formats")
struct FormatArticleSnippetRunTests {
  @Test("the Animation article's player bounces, steps and loads for playback")
  func theAnimationCodeRuns() async throws {
    let gif = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/pan-00.gif"))
    let player = try AnimationSnippets.play(gif)
    #expect(player.mode == .bounce)
    #expect(player.loopCount == 2)
    #expect(player.isPlaying == false, "stepping pauses")
    #expect(player.currentFrame == 1)
    player.stop()

    let folder = try TemporaryDirectory()
    let nginx = try NginxOrigin(serving: try folder.servingSamples(["pan-00.gif"]))
    defer { nginx.stop() }
    let manager = ImageManager(configuration: try .standard(namespace: "article-animation"))
    let animation = try #require(try await AnimationSnippets.loadForPlayback(manager, nginx.url("/pan-00.gif")))
    let whole = try CoderRegistry.shared.decode(gif, options: DecodeOptions())
    #expect(animation.timeline.frameCount == whole.frames.count)
    #expect(animation.timeline.frameCount > 1)
  }

  @Test("the Colour article keeps a Display P3 profile, embeds it, and turns pixels later")
  func theColourCodeRuns() throws {
    let p3 = try TestPaths.fixture("color/p3.jpg")
    let preserved = try ColourSnippets.preserve(p3)
    let profile = try #require(preserved.colorProfile)
    #expect(profile.iccData == (try TestPaths.fixture("color/p3.icc")))
    let encoded = try ColourSnippets.encodeProfiles(preserved)
    #expect(encoded.count == 3)
    // As stored: the P3 profile rides along. Untagged: no profile at all.
    #expect(try CoderRegistry.shared.decode(encoded[0], options: Self.preserving).colorProfile == profile)
    #expect(try CoderRegistry.shared.decode(encoded[2], options: Self.preserving).colorProfile == nil)
    #expect(try CoderRegistry.shared.decode(encoded[1], options: Self.preserving).colorProfile != profile)

    let sideways = try TestPaths.fixture("jpeg/orient6.jpg")
    let upright = try ColourSnippets.turnLater(sideways)
    #expect(upright == (try CoderRegistry.shared.decode(sideways, options: DecodeOptions())).pixels)
    #expect(try ColourSnippets.preservingManager().configuration.decodeLimits.colorManagement == .preserve)
  }

  @Test("the Formats article's farbfeld coder decodes, refuses a huge header, and serves a manager")
  func theFormatCodeRuns() async throws {
    // farbfeld, 2x1: red opaque, then half-transparent blue (16-bit samples).
    var bytes = [UInt8]("farbfeld".utf8) + [0, 0, 0, 2, 0, 0, 0, 1]
    bytes += [0xFF, 0x10, 0, 0, 0, 0, 0xFF, 0xFF] + [0, 0, 0, 0, 0xFF, 0x20, 0x80, 0x00]
    let coder = FormatSnippets.FarbfeldCoder()
    let image = try coder.decode(Data(bytes), options: DecodeOptions())
    #expect(image.pixels.straightRGBA() == [255, 0, 0, 255, 0, 0, 255, 128])
    var hostile = bytes
    hostile.replaceSubrange(8..<16, with: [0x7F, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF])
    #expect(throws: MagpieError.self) { try coder.decode(Data(hostile), options: DecodeOptions()) }
    #expect(throws: MagpieError.self) { try coder.decode(Data(bytes.prefix(20)), options: DecodeOptions()) }

    let manager = try FormatSnippets.registerOwn()
    let url = URL(string: "data:application/octet-stream;base64,\(Data(bytes).base64EncodedString())")!
    #expect(try await manager.image(for: ImageRequest(url: url)).image.pixels.size == PixelSize(width: 2, height: 1))

    let photo = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-01.jpg"))
    let webp = try FormatSnippets.thumbnail(photo)
    #expect(ImageFormat.sniff(webp) == .webp)
    // 1200x800 filling 400x300: decoded at no less than the box.
    let size = try CoderRegistry.shared.decode(webp, options: DecodeOptions()).pixels.size
    #expect(size.width >= 400 && size.height >= 300 && size.width < 1200, "\(size)")
  }

  #if canImport(MagpieAVIF)
    @Test("the Formats article's AVIF encode writes AVIF")
    func theAVIFCodeRuns() throws {
      let photo = try Data(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("samples/photo-01.jpg"))
      let image = try CoderRegistry.shared.decode(
        photo, options: DecodeOptions(targetSize: PixelSize(width: 300, height: 200)))
      let avif = try FormatSnippets.encodeAVIF(image)
      #expect(ImageFormat.sniff(avif) == .avif)
      #expect(try CoderRegistry.shared.decode(avif, options: DecodeOptions()).pixels.size == image.pixels.size)
    }
  #endif

  static var preserving: DecodeOptions {
    var options = DecodeOptions()
    options.colorManagement = .preserve
    return options
  }
}
