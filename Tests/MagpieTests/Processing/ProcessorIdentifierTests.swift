import Foundation
import Testing

@testable import Magpie

/// Identifiers name every parameter, never collide, and keep cache entries
/// of different processing apart.
@Suite struct ProcessorIdentifierTests {
  let size = PixelSize(width: 256, height: 256)
  let red = RGBAColor(red: 255, green: 0, blue: 0)

  /// Each built-in with each of its parameters varied in turn.
  private var variants: [any ImageProcessor] {
    let other = PixelSize(width: 256, height: 255)
    var list: [any ImageProcessor] = [
      ImageProcessors.Downsampling(size: size), ImageProcessors.Downsampling(size: other),
      ImageProcessors.Downsampling(size: size, kernel: .catmullRom),
      ImageProcessors.Downsampling(size: size, colorSpace: .linear),
      ImageProcessors.Resizing(size: size), ImageProcessors.Resizing(size: other),
      ImageProcessors.Resizing(size: size, mode: .fill), ImageProcessors.Resizing(size: size, mode: .stretch),
      ImageProcessors.Resizing(size: size, kernel: .bilinear),
      ImageProcessors.Resizing(size: size, colorSpace: .linear),
      ImageProcessors.RoundCorner(radius: 16), ImageProcessors.RoundCorner(radius: 16.5),
      ImageProcessors.RoundCorner(radius: 16, corners: .topLeft),
      ImageProcessors.RoundCorner(radius: 16, corners: [.topLeft, .bottomRight]),
      ImageProcessors.RoundCorner(radius: 16, background: .white),
      ImageProcessors.Blur(radius: 10), ImageProcessors.Blur(radius: 10.25), ImageProcessors.Blur(radius: 1),
      ImageProcessors.Tint(color: red), ImageProcessors.Tint(color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 254)),
      ImageProcessors.ColorControls(), ImageProcessors.ColorControls(brightness: 0.1),
      ImageProcessors.ColorControls(contrast: 1.1), ImageProcessors.ColorControls(saturation: 1.1),
      ImageProcessors.BlackWhite(),
      ImageProcessors.Overlay(color: red), ImageProcessors.Overlay(color: red, fraction: 0.25),
      ImageProcessors.Overlay(color: .white),
      ImageProcessors.Rotation(.degrees90), ImageProcessors.Rotation(.degrees180),
      ImageProcessors.Rotation(.degrees270),
      ImageProcessors.Flip(.horizontal), ImageProcessors.Flip(.vertical),
      ImageProcessors.Border(width: 2, color: red), ImageProcessors.Border(width: 3, color: red),
      ImageProcessors.Border(width: 2, color: .white),
      ImageProcessors.Custom(identifier: "sepia", pixels: { $0 }),
      ImageProcessors.Custom(identifier: "sepia(0.5)", pixels: { $0 }),
    ]
    for anchor in ImageProcessors.Cropping.Anchor.allCases {
      list.append(ImageProcessors.Cropping(size: size, anchor: anchor))
    }
    list.append(ImageProcessors.Cropping(size: other))
    return list
  }

  @Test func differentParametersNeverShareAnIdentifier() {
    let ids = variants.map(\.identifier)
    #expect(Set(ids).count == ids.count, "\(ids)")
    // Nor does any chain of two share one with another chain or a single
    // processor.
    var chains = Set<String>()
    for a in variants.prefix(12) {
      for b in variants.suffix(12) { chains.insert(a.append(b).identifier) }
    }
    #expect(chains.count == 144)
    #expect(chains.isDisjoint(with: ids))
  }

  @Test func theSameChainBuiltTwiceHasTheSameIdentifier() {
    func build() -> ImageProcessors.Chain {
      ImageProcessors.Downsampling(size: size) |> ImageProcessors.RoundCorner(radius: 16.0)
        |> ImageProcessors.Blur(radius: 2)
    }
    #expect(build().identifier == build().identifier)
    #expect(build().identifier == "downsample(256x256,lanczos3,sRGB)|round(16,all,#00000000)|blur(2)")
    // Grouping does not matter, order does.
    let a = ImageProcessors.Blur(radius: 1)
    let b = ImageProcessors.BlackWhite()
    let c = ImageProcessors.Flip(.vertical)
    #expect(((a |> b) |> c).identifier == (a |> (b |> c)).identifier)
    #expect(a.append(b).append(c).processors.count == 3)
    #expect((a |> b).identifier != (b |> a).identifier)
  }

  @Test func numbersHaveOneSpelling() {
    #expect(ImageProcessors.Blur(radius: 16).identifier == "blur(16)")
    #expect(ImageProcessors.Blur(radius: 16.0).identifier == ImageProcessors.Blur(radius: 16).identifier)
    #expect(ImageProcessors.Blur(radius: 2.5).identifier == "blur(2.5)")
    #expect(ImageProcessors.Blur(radius: -0.0).identifier == "blur(0)")
    #expect(ImageProcessors.Tint(color: RGBAColor(hex: 0x12AB34)).identifier == "tint(#12AB34FF)")
  }

  @Test func customIdentifiersCannotImitateChainsOrParameters() {
    let joined = ImageProcessors.Custom(identifier: "a)|custom(b", pixels: { $0 })
    let chain =
      ImageProcessors.Custom(identifier: "a", pixels: { $0 }) |> ImageProcessors.Custom(identifier: "b", pixels: { $0 })
    #expect(joined.identifier != chain.identifier)
    #expect(joined.identifier == "custom(a%29%7Ccustom%28b)")
  }

  @Test func anEmptyChainIsTheUnprocessedImage() throws {
    let chain = ImageProcessors.Chain([])
    #expect(chain.identifier.isEmpty)
    #expect(ImageCacheKey(source: "s", processorIdentifier: chain.identifier) == ImageCacheKey(source: "s"))
    let png = StoredPNG.encode(width: 2, height: 1, rgba: [1, 2, 3, 255, 4, 5, 6, 255])
    let image = try chain.process(item: .data(png), options: ImageProcessingOptions())
    #expect(image.pixelSize == PixelSize(width: 2, height: 1))
  }

  @Test func theCacheKeepsProcessedVariantsApart() async throws {
    let cache = ImageCache(memoryCache: .frozen(), diskCache: nil, trimsOnMemoryPressure: false)
    let source = "https://example.com/photo.jpg"
    let original = Image(
      pixels: ProcessingTestSupport.make(40, 30) { x, y in SIMD4(UInt8(x * 6), UInt8(y * 8), 90, 255) })
    let processors: [any ImageProcessor] = [
      ImageProcessors.Downsampling(size: PixelSize(width: 20, height: 20)),
      ImageProcessors.Downsampling(size: PixelSize(width: 10, height: 10)),
      ImageProcessors.Downsampling(size: PixelSize(width: 20, height: 20)) |> ImageProcessors.RoundCorner(radius: 4),
      ImageProcessors.BlackWhite(),
    ]
    var made: [Image] = []
    for processor in processors {
      let image = try processor.process(item: .image(original), options: ImageProcessingOptions())
      made.append(image)
      try await cache.store(image, forKey: ImageCacheKey(source: source, processorIdentifier: processor.identifier))
    }
    try await cache.store(original, forKey: ImageCacheKey(source: source))
    for (processor, image) in zip(processors, made) {
      let key = ImageCacheKey(source: source, processorIdentifier: processor.identifier)
      #expect(try await cache.retrieveImage(forKey: key).image?.pixels == image.pixels, "\(processor.identifier)")
    }
    #expect(try await cache.retrieveImage(forKey: ImageCacheKey(source: source)).image?.pixels == original.pixels)
    // The same processing built again finds the stored variant.
    let again =
      ImageProcessors.Downsampling(size: PixelSize(width: 20, height: 20)) |> ImageProcessors.RoundCorner(radius: 4.0)
    let hit = try await cache.retrieveImage(
      forKey: ImageCacheKey(source: source, processorIdentifier: again.identifier))
    #expect(hit.cacheType == .memory)
    #expect(hit.image?.pixels == made[2].pixels)
  }
}
