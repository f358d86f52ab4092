import CMagpieCodecs
import Foundation
import Testing

@testable import Magpie

/// Downsampling JPEG bytes box-reduces bands as libjpeg decodes them; the
/// pixels must be exactly those of decoding whole and then resampling.
@Suite struct StreamingThumbnailTests {
  /// A JPEG of `width` x `height` detailed pixels, tagged with EXIF
  /// `orientation`, written with libjpeg directly.
  private func jpeg(width: Int, height: Int, orientation: Int, progressive: Bool) throws -> Data {
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 3
        rgb[i] = UInt8(truncatingIfNeeded: x * 255 / width)
        rgb[i + 1] = UInt8(truncatingIfNeeded: y * 255 / height)
        rgb[i + 2] = UInt8(truncatingIfNeeded: (x / 7 + y / 5) * 40)
      }
    }
    // "Exif\0\0", little-endian TIFF header, one IFD entry: Orientation.
    let exif: [UInt8] =
      Array("Exif".utf8) + [0, 0] + [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + [0x01, 0x00]
      + [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(orientation), 0x00, 0x00, 0x00] + [0, 0, 0, 0]
    return try rgb.withUnsafeBufferPointer { pixels in
      try exif.withUnsafeBufferPointer { exifBytes in
        var params = mp_jpeg_encode_params()
        params.pixels = pixels.baseAddress
        params.stride = width * 3
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.input_format = MP_JPEG_INPUT_RGB
        params.quality = 90
        params.progressive = progressive ? 1 : 0
        params.exif = exifBytes.baseAddress
        params.exif_length = exifBytes.count
        var result = mp_jpeg_encode_result()
        try #require(mp_jpeg_encode(&params, &result) == MP_JPEG_OK)
        defer { mp_jpeg_free(result.data) }
        return Data(bytes: result.data!, count: result.size)
      }
    }
  }

  /// Decode whole, then resample: the path the streaming one replaces.
  private func reference(_ data: Data, box: PixelSize) throws -> Image {
    let image = try CoderRegistry.shared.decode(data, options: DecodeOptions(targetSize: box, firstFrameOnly: true))
    let target = image.pixelSize.fitting(in: box)
    return Image(pixels: Resampler.resample(image.pixels, to: target), format: .jpeg)
  }

  @Test(arguments: 1...8)
  func everyOrientationMatchesDecodingWhole(orientation: Int) throws {
    for progressive in [false, true] {
      let data = try jpeg(width: 1234, height: 987, orientation: orientation, progressive: progressive)
      for box in [
        PixelSize(width: 40, height: 40), PixelSize(width: 100, height: 70), PixelSize(width: 600, height: 600),
      ] {
        let streamed = try ImageProcessors.Downsampling(size: box).process(
          item: .data(data), options: ImageProcessingOptions())
        let expected = try reference(data, box: box)
        #expect(streamed.pixels == expected.pixels, "orientation \(orientation) \(box) progressive \(progressive)")
        #expect(streamed.orientation.rawValue == orientation)
        #expect(streamed.pixelSize == expected.pixelSize)
      }
    }
  }

  @Test func fixturesMatchDecodingWhole() throws {
    for name in ["photo96.jpg", "photo96_progressive.jpg", "s411.jpg", "s422.jpg", "gray.jpg", "cmyk_adobe.jpg"] {
      let data = try TestPaths.fixture("jpeg/" + name)
      for box in [PixelSize(width: 10, height: 10), PixelSize(width: 30, height: 17)] {
        let streamed = try ImageProcessors.Downsampling(size: box).process(
          item: .data(data), options: ImageProcessingOptions())
        #expect(streamed.pixels == (try reference(data, box: box)).pixels, "\(name) \(box)")
      }
    }
  }

  @Test func aUsersJPEGCoderIsStillAsked() throws {
    struct Marking: ImageCoder {
      func canDecode(_ data: Data, format: ImageFormat) -> Bool { format == .jpeg }
      func decode(_ data: Data, options: DecodeOptions) throws(MagpieError) -> Image {
        Image(pixels: ProcessingTestSupport.solid(8, 8, SIMD4(1, 2, 3, 255)))
      }
    }
    let registry = CoderRegistry()
    registry.register(Marking())
    let data = try jpeg(width: 64, height: 64, orientation: 1, progressive: false)
    let image = try ImageProcessors.Downsampling(size: PixelSize(width: 4, height: 4))
      .process(item: .data(data), options: ImageProcessingOptions(registry: registry))
    #expect(image.pixels[0, 0] == SIMD4(1, 2, 3, 255))
  }

  @Test func badAndCutOffJPEGsFailOrComeBackPartial() throws {
    let data = try jpeg(width: 300, height: 200, orientation: 1, progressive: false)
    let box = PixelSize(width: 20, height: 20)
    let cut = data.prefix(data.count / 2)
    let partial = try ImageProcessors.Downsampling(size: box).process(
      item: .data(cut), options: ImageProcessingOptions())
    #expect(partial.isPartial)
    var strict = ImageProcessingOptions()
    strict.decodeOptions.allowsPartialImage = false
    #expect(throws: MagpieError.self) {
      try ImageProcessors.Downsampling(size: box).process(item: .data(cut), options: strict)
    }
    #expect(throws: MagpieError.self) {
      try ImageProcessors.Downsampling(size: box).process(item: .data(data.prefix(40)), options: strict)
    }
    var tiny = ImageProcessingOptions()
    tiny.decodeOptions.maxPixelCount = 10
    #expect(throws: MagpieError.self) {
      try ImageProcessors.Downsampling(size: box).process(item: .data(data), options: tiny)
    }
  }
}
