import Foundation
import Testing

@testable import Magpie

/// Rotation, flips, crops, resizing and downsampling, on images whose
/// pixels say where they came from.
@Suite struct GeometryProcessorTests {
  typealias S = ProcessingTestSupport
  let options = ImageProcessingOptions()

  /// Pixel (x, y) is (x, y, x ^ y, 255): every pixel different.
  private func coordinates(_ width: Int, _ height: Int) -> PixelBuffer {
    S.make(width, height) { x, y in SIMD4(UInt8(x), UInt8(y), UInt8(x ^ y), 255) }
  }

  private func run(_ processor: some ImageProcessor, _ pixels: PixelBuffer) throws -> PixelBuffer {
    try processor.process(item: .image(Image(pixels: pixels)), options: options).pixels
  }

  @Test(arguments: [(3, 2), (70, 45), (33, 64)])
  func rotationMovesEveryPixelWhereItBelongs(width: Int, height: Int) throws {
    let source = coordinates(width, height)
    let quarter = try run(ImageProcessors.Rotation(.degrees90), source)
    #expect(quarter.size == PixelSize(width: height, height: width))
    let half = try run(ImageProcessors.Rotation(.degrees180), source)
    let threeQuarters = try run(ImageProcessors.Rotation(.degrees270), source)
    for y in 0..<height {
      for x in 0..<width {
        // Clockwise: the left column becomes the top row, read bottom up.
        #expect(quarter[height - 1 - y, x] == source[x, y])
        #expect(half[width - 1 - x, height - 1 - y] == source[x, y])
        #expect(threeQuarters[y, width - 1 - x] == source[x, y])
      }
    }
  }

  @Test func rotationsRoundTrip() throws {
    let source = coordinates(41, 29)
    let ninety = ImageProcessors.Rotation(.degrees90)
    #expect(try run(ImageProcessors.Rotation(.degrees270), try run(ninety, source)) == source)
    #expect(try run(ninety, try run(ninety, try run(ninety, try run(ninety, source)))) == source)
    let half = ImageProcessors.Rotation(.degrees180)
    #expect(try run(half, try run(half, source)) == source)
    #expect(try run(half, source) == (try run(ninety, try run(ninety, source))))
  }

  @Test func flipsMirrorAndRoundTrip() throws {
    let source = coordinates(13, 7)
    let h = try run(ImageProcessors.Flip(.horizontal), source)
    let v = try run(ImageProcessors.Flip(.vertical), source)
    for y in 0..<7 {
      for x in 0..<13 {
        #expect(h[12 - x, y] == source[x, y])
        #expect(v[x, 6 - y] == source[x, y])
      }
    }
    #expect(try run(ImageProcessors.Flip(.horizontal), h) == source)
    #expect(try run(ImageProcessors.Flip(.vertical), v) == source)
    // Both flips are a half turn.
    #expect(try run(ImageProcessors.Flip(.vertical), h) == (try run(ImageProcessors.Rotation(.degrees180), source)))
  }

  @Test(arguments: [
    (ImageProcessors.Cropping.Anchor.center, 3, 2), (.top, 3, 0), (.bottom, 3, 4), (.left, 0, 2), (.right, 6, 2),
    (.topLeft, 0, 0), (.topRight, 6, 0), (.bottomLeft, 0, 4), (.bottomRight, 6, 4),
  ])
  func cropAnchorsLandOnTheRightPixels(anchor: ImageProcessors.Cropping.Anchor, x: Int, y: Int) throws {
    // A 10x8 image cropped to 4x4 leaves 6x4 of slack.
    let source = coordinates(10, 8)
    let crop = try run(ImageProcessors.Cropping(size: PixelSize(width: 4, height: 4), anchor: anchor), source)
    #expect(crop.size == PixelSize(width: 4, height: 4))
    #expect(crop[0, 0] == source[x, y])
    #expect(crop[3, 3] == source[x + 3, y + 3])
  }

  @Test func cropLargerThanTheImageKeepsWhatThereIs() throws {
    let source = coordinates(10, 8)
    let crop = try run(ImageProcessors.Cropping(size: PixelSize(width: 20, height: 4), anchor: .bottom), source)
    #expect(crop.size == PixelSize(width: 10, height: 4))
    #expect(crop[0, 0] == source[0, 4])
  }

  /// Left quarter red, middle half green, right quarter blue.
  private func bands(_ width: Int, _ height: Int) -> PixelBuffer {
    S.make(width, height) { x, _ in
      x < width / 4 ? SIMD4(255, 0, 0, 255) : x >= width * 3 / 4 ? SIMD4(0, 0, 255, 255) : SIMD4(0, 255, 0, 255)
    }
  }

  @Test func resizeModesMeetTheTargetAsTheySay() throws {
    let source = bands(100, 50)
    let box = PixelSize(width: 40, height: 40)
    let fit = try run(ImageProcessors.Resizing(size: box, mode: .fit), source)
    #expect(fit.size == PixelSize(width: 40, height: 20))
    #expect(fit[0, 10] == SIMD4(255, 0, 0, 255))
    // Fill covers 40x40 with the centre 50x50, all green.
    let fill = try run(ImageProcessors.Resizing(size: box, mode: .fill), source)
    #expect(fill.size == box)
    for (x, y) in [(0, 0), (39, 39), (20, 20), (0, 39)] { #expect(fill[x, y] == SIMD4(0, 255, 0, 255)) }
    let stretch = try run(ImageProcessors.Resizing(size: box, mode: .stretch), source)
    #expect(stretch.size == box)
    #expect(stretch[0, 0] == SIMD4(255, 0, 0, 255))
    #expect(stretch[39, 39] == SIMD4(0, 0, 255, 255))
    // Resizing enlarges too.
    let up = try run(ImageProcessors.Resizing(size: PixelSize(width: 400, height: 400), mode: .fit), bands(20, 10))
    #expect(up.size == PixelSize(width: 400, height: 200))
  }

  @Test func downsamplingFitsAndNeverEnlarges() throws {
    let source = bands(100, 50)
    let down = try run(ImageProcessors.Downsampling(size: PixelSize(width: 40, height: 40)), source)
    #expect(down.size == PixelSize(width: 40, height: 20))
    let small = coordinates(30, 20)
    #expect(try run(ImageProcessors.Downsampling(size: PixelSize(width: 40, height: 40)), small) == small)
  }

  @Test func downsamplingDecodesDataAtTheSizeItNeeds() throws {
    // A 1600x1200 JPEG fitted into 100x100: decoded at 1/8 (200x150), then
    // resampled to 100x75.
    let source = bands(1600, 1200)
    let jpeg = try CoderRegistry.shared.encode(Image(pixels: source), as: .jpeg, options: EncodeOptions(quality: 90))
    let processor = ImageProcessors.Downsampling(size: PixelSize(width: 100, height: 100))
    let image = try processor.process(item: .data(jpeg), options: options)
    #expect(image.pixelSize == PixelSize(width: 100, height: 75))
    #expect(image.format == .jpeg)
    let green = image.pixels[50, 37]
    #expect(green[1] > 240 && green[0] < 15 && green[2] < 15)
    // PNG bytes decode in full and are resampled.
    let png = StoredPNG.encode(width: 8, height: 4, rgba: [UInt8](repeating: 200, count: 8 * 4 * 4))
    let fromPNG = try processor.process(item: .data(png), options: options)
    #expect(fromPNG.pixelSize == PixelSize(width: 8, height: 4))
    // Bytes that are no image: nil, not a crash.
    #expect(throws: MagpieError.self) {
      try processor.process(item: .data(Data("not an image".utf8)), options: options)
    }
  }

  @Test func linearLightIsOfferedAndNamed() throws {
    let source = S.make(64, 64) { x, y in (x + y) % 2 == 0 ? SIMD4(0, 0, 0, 255) : SIMD4(255, 255, 255, 255) }
    let half = PixelSize(width: 32, height: 32)
    let processor = ImageProcessors.Downsampling(size: half, kernel: .bilinear, colorSpace: .linear)
    let result = try run(processor, source)
    #expect(abs(Int(result[16, 16][0]) - 188) <= 1)
    #expect(processor.identifier == "downsample(32x32,bilinear,linear)")
  }
}
